"""Scripts to start from, offered in Edit › Generate Random Deals (and documented in docs/generate.md).

Each is a complete dealer script a teacher can adapt: the deals for a lesson on
1NT openings, weak twos, slams, and a problem hand with one seat predealt.
"""

from __future__ import annotations

EXAMPLES: dict[str, str] = {
    "15-17 balanced (1NT openings)": """\
# South opens 1NT: 15-17 HCP and a balanced hand
dealer south
nt = shape(south, any 4333 + any 4432 + any 5332) && hcp(south) >= 15 && hcp(south) <= 17
condition nt
""",
    "Weak twos": """\
# North opens a weak two: a six-card major with 5-10 HCP,
# no void and no four cards in the other major
dealer north
two_spades = spades(north) == 6 && hearts(north) < 4
two_hearts = hearts(north) == 6 && spades(north) < 4
condition (two_spades || two_hearts) && hcp(north) >= 5 && hcp(north) <= 10
          && shape(north, any 6xxx - any 0xxx - any 7xxx)
""",
    "Slam hands": """\
# North-South have the values for a slam: 33 or more HCP between them
# and a fit or a balanced pair of hands
combined = hcp(north) + hcp(south)
fit = spades(north) + spades(south) >= 8 || hearts(north) + hearts(south) >= 8
      || diamonds(north) + diamonds(south) >= 9 || clubs(north) + clubs(south) >= 9
condition combined >= 33 && (fit || shape(north, any 4333 + any 4432 + any 5332))
""",
    "A predealt problem hand": """\
# The "you hold" problem of dealer's manual: South holds this hand,
# West opens 1C and North overcalls 2D; what does East do?
vulnerable EW
dealer west
predeal south SAQ542, HKJ87, D32, CAK
west1n = shape(west, any 4333 + any 4432 + any 5332 - 5xxx - x5xx) &&
         hcp(west) > 14 && hcp(west) < 18
west1h = hearts(west) >= 5
west1s = spades(west) >= 5
west1d = diamonds(west) > clubs(west) || ((diamonds(west) == clubs(west)) == 4)
west1c = (not west1n) && hcp(west) > 10 && clubs(west) >= 3
         && (not west1h) && (not west1s) && (not west1d)
north2d = (hcp(north) > 5 && hcp(north) < 12) &&
          shape(north, xx6x + xx7x - any 4xxx - any 5xxx)
condition west1c && north2d
""",
}
