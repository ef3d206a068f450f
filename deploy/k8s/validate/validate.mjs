// Validates Kubernetes manifests (a rendered overlay: `kubectl kustomize <overlay> | node validate.mjs`, or files
// given as arguments) against the OpenAPI schemas of Kubernetes, the Gateway API and the Prometheus operator, as
// packaged by kubernetes-models. Offline: everything comes from node_modules (`npm ci` from package-lock.json).
// Prints one line per resource and exits 1 when any resource is invalid, or of a kind no schema here knows,
// unless that kind is listed in NOT_SCHEMA_CHECKED (then it is reported, and only its shape is checked).
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";

// Kinds with no published model package: checked for apiVersion/kind/metadata.name only, and said so.
const NOT_SCHEMA_CHECKED = new Set(["postgresql.cnpg.io/v1/Cluster"]);

const PACKAGES = [
  (group, version) => (group === "" ? `kubernetes-models/${version}` : `kubernetes-models/${group}/${version}`),
  (group, version) => `@kubernetes-models/gateway-api/${group}/${version}`,
  (group, version) => `@kubernetes-models/prometheus-operator/${group}/${version}`,
];

async function modelFor(apiVersion, kind) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  for (const packageOf of PACKAGES) {
    try {
      const module = await import(packageOf(group, version));
      if (typeof module[kind] === "function") {
        return module[kind];
      }
    } catch (notThere) {
      if (notThere.code !== "ERR_MODULE_NOT_FOUND" && notThere.code !== "ERR_PACKAGE_PATH_NOT_EXPORTED") {
        throw notThere;
      }
    }
  }
  return null;
}

function describe(error) {
  const details = error.errors ?? error.details;
  if (Array.isArray(details)) {
    return details.map((d) => `${d.instancePath || d.path || ""} ${d.message}`.trim()).join("; ");
  }
  return error.message;
}

const sources = process.argv.length > 2
  ? process.argv.slice(2).map((file) => [file, readFileSync(file, "utf8")])
  : [["<stdin>", readFileSync(0, "utf8")]];

let failures = 0;
let count = 0;
for (const [source, text] of sources) {
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) {
      console.log(`INVALID ${source}: YAML: ${document.errors.map((e) => e.message).join("; ")}`);
      failures++;
      continue;
    }
    const resource = document.toJS();
    if (resource === null || resource === undefined) {
      continue;
    }
    count++;
    const { apiVersion, kind } = resource;
    const name = `${apiVersion}/${kind} ${resource.metadata?.name ?? "<no name>"}`;
    if (typeof apiVersion !== "string" || typeof kind !== "string" || typeof resource.metadata?.name !== "string") {
      console.log(`INVALID ${source}: ${name}: apiVersion, kind and metadata.name are required`);
      failures++;
      continue;
    }
    if (apiVersion === "v1" && kind === "Secret" && resource.data) {
      // kustomize wraps long base64 values over several lines; the API server's decoder skips the line breaks.
      for (const key of Object.keys(resource.data)) {
        resource.data[key] = String(resource.data[key]).replace(/\s+/g, "");
      }
    }
    const Model = await modelFor(apiVersion, kind);
    if (Model === null) {
      if (NOT_SCHEMA_CHECKED.has(`${apiVersion}/${kind}`)) {
        console.log(`unchecked ${name} (no schema package for ${apiVersion} ${kind})`);
        continue;
      }
      console.log(`INVALID ${source}: ${name}: no schema knows ${apiVersion} ${kind}`);
      failures++;
      continue;
    }
    try {
      new Model(resource).validate();
      console.log(`valid ${name}`);
    } catch (error) {
      console.log(`INVALID ${source}: ${name}: ${describe(error)}`);
      failures++;
    }
  }
}
if (count === 0) {
  console.log("INVALID: no resource to validate");
  failures++;
}
console.log(`${count} resources, ${failures} invalid`);
process.exit(failures === 0 ? 0 : 1);
