// Package mcp connects Errand to MCP servers (the Model Context Protocol)
// through the official Go SDK: servers Errand starts and talks to over
// stdio, each in its own process group, and Streamable HTTP servers. Their
// tools join the agent's tools (a tools.Source) named server__tool, with a
// risk read from their annotations or set by the person. The package also
// reads Claude Desktop's configuration and turns a server's elicitation
// into a question for the person.
package mcp
