"""Make 21 (RULES.md §3.3): two to five players, two shared piles, the fewest collected cards wins."""
