"""Service mode: the HTTP API (`kgbrain serve`) and the MCP server (`kgbrain mcp`) over one open knowledge base."""
