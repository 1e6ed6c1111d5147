// An MCP client written with the official TypeScript SDK. It starts the
// server command given as arguments over stdio, exercises nb's tools and
// prints one JSON object describing what happened. ELICIT=accept|decline
// chooses how the client answers approval questions; ELICIT=none makes a
// client without elicitation support.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [command, ...args] = process.argv.slice(2);
const mode = process.env.ELICIT || "accept";
const caps = mode === "none" ? {} : { elicitation: {} };
const client = new Client({ name: "nb-ts-test", version: "1.0.0" }, { capabilities: caps });
const asked = [];
if (mode !== "none") {
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params.message);
    if (mode === "accept") return { action: "accept", content: { approve: true } };
    return { action: "decline" };
  });
}
const transport = new StdioClientTransport({ command, args, stderr: "inherit" });
const out = { asked };
const text = (r) => (r.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");
try {
  await client.connect(transport);
  out.server = client.getServerVersion();
  out.tools = (await client.listTools()).tools.map((t) => t.name).sort();
  const ctx = await client.callTool({ name: "get_context", arguments: {} });
  out.context = JSON.parse(text(ctx));
  const w = await client.callTool({ name: "write_file", arguments: { path: "ts/hello.txt", content: "from typescript\n" } });
  out.write = { text: text(w), isError: !!w.isError };
  const r = await client.callTool({ name: "read_file", arguments: { path: "ts/hello.txt" } });
  out.read = { text: text(r), isError: !!r.isError };
  const esc = await client.callTool({ name: "read_file", arguments: { path: "../../../../etc/passwd" } });
  out.escape = { text: text(esc), isError: !!esc.isError };
  try {
    await client.callTool({ name: "no_such_tool", arguments: {} });
    out.unknown = "no error";
  } catch (e) {
    out.unknown = { code: e.code, message: String(e.message) };
  }
} catch (e) {
  out.error = String(e && e.stack ? e.stack : e);
} finally {
  await client.close();
}
console.log(JSON.stringify(out));
