"""The store's commands (`scorebox archers`, `boxes`, `backup`, `restore`, `export`, `import`):
each reads its arguments, asks the store (scorebox.store) and prints what it did."""
