// An MCP client written with the official TypeScript SDK, over streamable
// HTTP: node tshttp.mjs URL [TOKEN]. It lists the tools and reads h.txt,
// sending "Authorization: Bearer TOKEN" when a token is given, and prints
// one JSON object describing what happened.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token] = process.argv.slice(2);
const headers = token ? { Authorization: `Bearer ${token}` } : {};
const client = new Client({ name: "nb-ts-http-test", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
const out = {};
const text = (r) => (r.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");
try {
  await client.connect(transport);
  out.tools = (await client.listTools()).tools.map((t) => t.name).sort();
  out.read = text(await client.callTool({ name: "read_file", arguments: { path: "h.txt" } }));
} catch (e) {
  out.error = String(e && e.message ? e.message : e);
}
await client.close().catch(() => {});
console.log(JSON.stringify(out));
