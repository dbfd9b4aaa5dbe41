"""A league's server: clubs as accounts with tokens, the push endpoint that takes
a club's matches over HTTP, and `scorebox league add-club` (docs/league.md)."""
