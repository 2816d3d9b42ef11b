from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Floor console"

    def ready(self) -> None:
        from django.contrib import admin

        # The admin's "View site" leads to the floor, the staff's home page (config/urls.py mounts
        # it at /floor/; a path rather than a reverse, so URL confs without the floor still render).
        admin.site.site_url = "/floor/"
