from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from floor.access import console_view, visible_tables


@console_view()
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "floor/live/floor.html", {"tables": visible_tables(request.user)})
