-- MCP servers the person configured: each one's configuration as JSON
-- (chat.MCPServer), its name unique whatever the case. Times are Unix
-- milliseconds.
CREATE TABLE mcp_servers (
    id          TEXT PRIMARY KEY,
    name        TEXT    NOT NULL,
    config      TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX mcp_servers_name ON mcp_servers (name COLLATE NOCASE);

-- Images a tool returned (an MCP server's image content): the model is
-- told of them in words, the window shows them.
CREATE TABLE tool_images (
    id          TEXT PRIMARY KEY,
    mime        TEXT    NOT NULL,
    data        BLOB    NOT NULL,
    created_at  INTEGER NOT NULL
);
