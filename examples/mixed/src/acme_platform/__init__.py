"""The Acme platform: accounts, search, documents and partner integrations."""
