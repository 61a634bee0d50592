/**
 * An independent client of the OGC door: Debian's OWSLib (`python3-owslib`, 0.27), which reads
 * the landing page, conformance and API definition, lists the processes and describes each.
 * It must see every API published in the environment that the key may run, with the inputs
 * (flow inputs and parameters) and outputs (results) of its flow. `npm test` installs the
 * package when missing and it may (scripts/test.ts); otherwise this test skips, saying why.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BASE_URL, DEMO_KEY, sql } from "./helpers";

const PYTHON = "/usr/bin/python3";
const HAS_OWSLIB = spawnSync(PYTHON, ["-c", "import owslib.ogcapi.processes"]).status === 0;
if (!HAS_OWSLIB) console.warn("[ogc-owslib] skipped: Debian's python3-owslib is not installed (apt-get install -y python3-owslib, as root).");

const SCRIPT = `
import json, os
from owslib.ogcapi.processes import Processes
p = Processes(os.environ["OGC_URL"], headers={"X-Api-Key": os.environ["OGC_KEY"]})
out = {"links": [l["rel"] for l in p.links], "conformance": p.conformance()["conformsTo"], "openapi": p.api()["openapi"], "processes": []}
for s in p.processes()["processes"]:
    d = p.process(s["id"])
    out["processes"].append({"id": d["id"], "inputs": sorted(d["inputs"].keys()), "outputs": sorted(d["outputs"].keys())})
print(json.dumps(out))
`;

describe("OWSLib", () => {
  it.skipIf(!HAS_OWSLIB)("lists and describes every published API the key may run, and reads conformance and the API definition", async () => {
    const r = spawnSync(PYTHON, ["-c", SCRIPT], {
      encoding: "utf8",
      env: { ...process.env, OGC_URL: `${BASE_URL}/public/ogc/demo/production`, OGC_KEY: DEMO_KEY },
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const seen = JSON.parse(r.stdout) as {
      links: string[];
      conformance: string[];
      openapi: string;
      processes: { id: string; inputs: string[]; outputs: string[] }[];
    };
    expect(seen.conformance).toContain("http://www.opengis.net/spec/ogcapi-processes-1/1.0/conf/core");
    expect(seen.openapi).toMatch(/^3\.0\./);
    const { rows } = await sql().query(
      `SELECT fa.slug, fv.definition FROM environment_api ea
       JOIN environment e ON e.id = ea."environmentId" AND e.slug = 'production'
       JOIN flow_api fa ON fa.id = ea."flowApiId" JOIN release r ON r.id = ea."releaseId" JOIN flow_version fv ON fv.id = r."flowVersionId"
       JOIN access_grant g ON g."flowApiId" = fa.id JOIN consumer c ON c.id = g."consumerId" AND c.slug = 'demo-consumer'
       ORDER BY fa.slug`,
    );
    const expected = rows.map((row: { slug: string; definition: any }) => ({
      id: row.slug,
      // A parameter named like an input is the process input `parameters.<name>` (lib/ogc/process-description.ts).
      inputs: [
        ...row.definition.inputs.map((i: any) => i.name),
        ...(row.definition.parameters ?? []).map((p: any) => (row.definition.inputs.some((i: any) => i.name === p.name) ? `parameters.${p.name}` : p.name)),
      ].sort(),
      outputs: row.definition.results.map((x: any) => x.key).sort(),
    }));
    expect(seen.processes.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(expected);
  });
});
