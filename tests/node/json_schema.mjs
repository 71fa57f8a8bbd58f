// A small JSON Schema (draft-07) checker for the keywords speedscope's
// file-format-schema.json uses: $ref (local #/definitions), type, const, enum, required,
// properties, items, anyOf, oneOf. Returns the list of violations (empty = valid).
export function validate(schema, value, root = schema, path = '$') {
  const errors = [];
  const check = (s, v, p) => {
    if (s.$ref) {
      const name = s.$ref.replace('#/definitions/', '');
      const target = root.definitions?.[name];
      if (!target) return errors.push(`${p}: unresolved $ref ${s.$ref}`);
      return check(target, v, p);
    }
    if (s.type && !matchesType(s.type, v)) return errors.push(`${p}: expected ${s.type}, got ${JSON.stringify(v)?.slice(0, 40)}`);
    if ('const' in s && v !== s.const) errors.push(`${p}: expected ${JSON.stringify(s.const)}`);
    if (s.enum && !s.enum.includes(v)) errors.push(`${p}: ${JSON.stringify(v)} not in ${JSON.stringify(s.enum)}`);
    if (s.required) for (const k of s.required) if (!(k in v)) errors.push(`${p}: missing required "${k}"`);
    if (s.properties && v && typeof v === 'object')
      for (const [k, sub] of Object.entries(s.properties)) if (k in v) check(sub, v[k], `${p}.${k}`);
    if (s.items && Array.isArray(v)) v.forEach((item, i) => check(s.items, item, `${p}[${i}]`));
    for (const key of ['anyOf', 'oneOf']) {
      if (!s[key]) continue;
      const passing = s[key].filter((alt) => validate(alt, v, root, p).length === 0).length;
      if (key === 'anyOf' ? passing === 0 : passing !== 1) errors.push(`${p}: ${passing} of the ${key} alternatives match`);
    }
  };
  check(schema, value, path);
  return errors;
}

function matchesType(type, v) {
  switch (type) {
    case 'object': return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'array': return Array.isArray(v);
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    case 'integer': return Number.isInteger(v);
    case 'string': return typeof v === 'string';
    case 'boolean': return typeof v === 'boolean';
    case 'null': return v === null;
    default: return true;
  }
}
