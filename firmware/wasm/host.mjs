// The dice module's firmware on MicroPython's WebAssembly port, under node.
// One JSON request a line on stdin, one JSON reply a line on stdout (see
// shim.py); what MicroPython prints goes to stderr.
//   node host.mjs FIRMWARE_DIR PORT_DIR
// PORT_DIR: the npm package @micropython/micropython-webassembly-pyscript.
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createInterface } from "node:readline";

const [firmware, port] = process.argv.slice(2);
const { loadMicroPython } = await import(pathToFileURL(join(port, "micropython.mjs")).href);
const here = dirname(fileURLToPath(import.meta.url));
const say = (line) => process.stderr.write(line + "\n");
const mp = await loadMicroPython({ stdout: say, stderr: say });
mp.registerJsModule("host", { urandom: (n) => randomBytes(n).toString("hex") });
mp.FS.mkdir("/firmware");
for (const name of ["__init__.py", "protocol.py", "dice.py", "module.py", "chisquare.py"]) {
  mp.FS.writeFile("/firmware/" + name, readFileSync(join(firmware, name)));
}
mp.FS.writeFile("/shim.py", readFileSync(join(here, "shim.py")));
mp.runPython("import sys\nsys.path.insert(0, '/')\nimport shim");
const handle = mp.pyimport("shim").handle;

const lines = createInterface({ input: process.stdin });
process.stdout.write(JSON.stringify({ ready: mp.pyimport("sys").version }) + "\n");
for await (const line of lines) {
  let reply;
  try {
    reply = handle(line);
  } catch (error) {
    reply = JSON.stringify({ error: String(error) });
  }
  process.stdout.write(reply + "\n");
}
