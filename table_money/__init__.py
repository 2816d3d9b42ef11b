"""The money on the tables beyond the game: buy-ins, fills and credits (numbered slips), openers and
closers, the soft count, the cage's chip redemptions, and Title 31 (the MTL and CTR worksheets)."""
