"""Failed staff sign-ins (the floor console's and the admin site's), counted per username and per
source address (`casino.services.staff_sign_in`).

Keyed by the username as typed, not by the user row: a username that names nobody locks the same
way, so the lock says nothing about which accounts exist. A row appears at the first failure.
"""

from django.db import models
from django.db.models import Q


class StaffSignInLock(models.Model):
    """Wrong passwords for one username in a window; too many lock it until an admin unlocks it."""

    username = models.CharField(max_length=150, unique=True)
    failures = models.PositiveSmallIntegerField(default=0)
    failures_since = models.DateTimeField(null=True, blank=True)
    locked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "staff sign-in lock"
        verbose_name_plural = "staff sign-in locks"

    def __str__(self) -> str:
        state = "locked" if self.locked_at else f"{self.failures} failed"
        return f"{self.username} ({state})"


class StaffSignInThrottle(models.Model):
    """Failed sign-ins from one source (an IPv4 address or an IPv6 /64) in a window; too many make
    every sign-in from there refused until the window ends."""

    source = models.CharField(max_length=64, unique=True)
    failures = models.PositiveIntegerField(default=0)
    failures_since = models.DateTimeField()

    class Meta:
        verbose_name = "staff sign-in throttle"
        constraints = [models.CheckConstraint(condition=~Q(source=""), name="staff_sign_in_throttle_source")]

    def __str__(self) -> str:
        return f"{self.source}: {self.failures} failed since {self.failures_since:%Y-%m-%d %H:%M}"
