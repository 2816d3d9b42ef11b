from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Floor console"

    def ready(self) -> None:
        from django.contrib import admin
        from django.contrib.auth.signals import user_logged_in

        from floor.sign_in import stamp_sign_in, use_in_admin_site

        # The admin's "View site" leads to the floor, the staff's home page (config/urls.py mounts
        # it at /floor/; a path rather than a reverse, so URL confs without the floor still render).
        admin.site.site_url = "/floor/"
        # The admin site's sign-in says why it was refused, as the console's does (floor.sign_in).
        use_in_admin_site()
        user_logged_in.connect(stamp_sign_in, dispatch_uid="floor.sign_in.stamp_sign_in")
