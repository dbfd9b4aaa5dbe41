"""The club's desk: `scorebox serve`, the store's commands as web pages (docs/web.md)."""
