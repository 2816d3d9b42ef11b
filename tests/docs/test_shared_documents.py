"""The rulebook and the API contract travel with the repository (`docs/`), as identical copies of
the project's shared documents (`../shared/`, beside the checkout): when those change, copy them in."""

import re
from pathlib import Path

import pytest
from django.conf import settings

DOCS = Path(settings.BASE_DIR) / "docs"
SHARED = Path(settings.BASE_DIR).parent / "shared"


@pytest.mark.parametrize("name", ["RULES.md", "API.md"])
def test_the_repository_copy_is_identical_to_the_shared_document(name: str) -> None:
    shared = SHARED / name
    assert shared.is_file(), f"{shared} is missing: the shared documents belong beside the checkout"
    assert (DOCS / name).read_bytes() == shared.read_bytes(), (
        f"docs/{name} differs from ../shared/{name}: copy the shared version in"
    )


def test_every_documentation_link_of_the_readme_and_docs_points_at_a_file() -> None:
    pages = [Path(settings.BASE_DIR) / "README.md", *DOCS.glob("*.md")]
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", page.read_text()):
            if not (page.parent / target).is_file():
                broken.append(f"{page.name} -> {target}")
    assert broken == []
