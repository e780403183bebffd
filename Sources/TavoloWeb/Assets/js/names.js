// Names as the page shows them (PROTOCOL.md §4.1), the rule the CLI follows (TavoloControl/PeerNameDisplay.swift):
// a name is anybody's to take, so a name that looks like another node's — equal once case, compatibility forms,
// marks and common look-alike letters are folded — is shown with the first 8 digits of its node id beside it.

/** Letters of other scripts drawn like Latin ones, and digits drawn like letters. The same table as
 *  `PeerNameDisplay.lookAlikes` (WebAssetsTests checks that they are equal). */
export const LOOK_ALIKES = {
  "а": "a", "в": "b", "с": "c", "е": "e", "һ": "h", "і": "i", "ј": "j", "к": "k", "м": "m", "н": "h", "о": "o",
  "р": "p", "ѕ": "s", "т": "t", "у": "y", "х": "x", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g", "ı": "i",
  "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x",
  "0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "$": "s", "@": "a",
};

/** What a name looks like: compatibility forms unified (NFKC: full-width letters, ligatures), case folded, marks
 *  dropped, look-alike letters replaced, spaces and `-`/`_`/`.` left out, "rn" read as "m". */
export function skeleton(name) {
  const folded = name.normalize("NFKC").toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");
  let out = "";
  for (const c of folded) {
    if (/\s/u.test(c) || "-_.".includes(c)) continue;
    const mapped = LOOK_ALIKES[c] || c;
    if (mapped === "n" && out.endsWith("r")) out = out.slice(0, -1) + "m";
    else out += mapped;
  }
  return out;
}

/** A function `(name, node) → text` for the nodes the page knows (`[{name, node}]`: this node and its peers, plus any
 *  other a list names): a name that looks like another node's gets ` (id 1a2b3c4d)`. A name without a node (a bot)
 *  is never marked. */
export function nameMarker(known) {
  const nodes = new Map();
  for (const k of known) {
    if (!k.node || !k.name) continue;
    const s = skeleton(k.name);
    if (!nodes.has(s)) nodes.set(s, new Set());
    nodes.get(s).add(k.node);
  }
  return (name, node) => {
    if (!node || !name) return name;
    const others = nodes.get(skeleton(name));
    const lookAlike = others && [...others].some((n) => n !== node);
    return lookAlike ? `${name} (id ${node.slice(0, 8)})` : name;
  };
}
