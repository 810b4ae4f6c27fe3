"""How a rated seat is named and a rating shown, shared by the people stores and the club's pages
(:mod:`.people`, :mod:`.evening`) without either importing the other."""

from __future__ import annotations

#: A computer's seat is rated as its level: ``computer:expert``.
COMPUTER_PREFIX = "computer:"
#: Points per unit of openskill's ordinal on the screens.
POINTS_SCALE = 40


def shown_points(mu: float, sigma: float) -> int:
    """A rating as the screens show it: ``round(40 * (mu - 3 sigma))``.  A newcomer (mu 25,
    sigma 25/3) is 0; a steady winner climbs towards about 1000 and beyond."""
    return round(POINTS_SCALE * (mu - 3 * sigma))


__all__ = ["COMPUTER_PREFIX", "POINTS_SCALE", "shown_points"]
