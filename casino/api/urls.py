from django.urls import URLPattern, URLResolver, path

from casino.api import (
    dealer_views,
    views,
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("terminal/sign-in/", views.TerminalSignInApi.as_view(), name="terminal-sign-in"),
    path("terminal/sign-out/", views.TerminalSignOutApi.as_view(), name="terminal-sign-out"),
    path("dealers/<int:dealer_id>/unlock/", dealer_views.DealerUnlockApi.as_view(), name="dealer-unlock"),
    path("shoes/", views.ShoeOpenApi.as_view(), name="shoe-open"),
    path("shoes/<int:shoe_id>/close/", views.ShoeCloseApi.as_view(), name="shoe-close"),
]
