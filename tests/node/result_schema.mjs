// Validates a JSON value against the engine's result schema (`nettrace schema --json`,
// `results`; core/api/result_schema.h): every field of a shape present unless optional, null
// only where nullable, each value of its type, and no key the shape does not name (unless the
// shape has a "*" rest field). Returns the violations (empty = valid); `seen` collects the
// shape names and "Shape.field" paths met (a test can check the corpus reaches them).
export function validateResult(schema, type, value, path = '$', seen = new Set()) {
  const shapes = new Map(schema.results.shapes.map((s) => [s.name, s]));
  const errors = [];
  const show = (v) => JSON.stringify(v)?.slice(0, 60);
  const check = (t, v, p) => {
    switch (t.kind) {
      case 'number': if (typeof v !== 'number' || !Number.isFinite(v)) errors.push(`${p}: expected a number, got ${show(v)}`); return;
      case 'integer': if (!Number.isInteger(v)) errors.push(`${p}: expected an integer, got ${show(v)}`); return;
      case 'string': if (typeof v !== 'string') errors.push(`${p}: expected a string, got ${show(v)}`); return;
      case 'boolean': if (typeof v !== 'boolean') errors.push(`${p}: expected a boolean, got ${show(v)}`); return;
      case 'unknown': if (v === undefined) errors.push(`${p}: missing value`); return;
      case 'enum': if (!t.values.includes(v)) errors.push(`${p}: ${show(v)} is not one of ${t.values.join(', ')}`); return;
      case 'array':
        if (!Array.isArray(v)) return void errors.push(`${p}: expected an array, got ${show(v)}`);
        v.forEach((item, i) => check(t.items, item, `${p}[${i}]`));
        return;
      case 'map':
        if (!isObject(v)) return void errors.push(`${p}: expected an object, got ${show(v)}`);
        for (const [k, item] of Object.entries(v)) check(t.items, item, `${p}.${k}`);
        return;
      case 'shape': return checkShape(shapes.get(t.name), v, p);
      default: errors.push(`${p}: unknown type kind ${t.kind}`);
    }
  };
  const checkShape = (shape, v, p) => {
    if (shape === undefined) return void errors.push(`${p}: no such shape`);
    if (!isObject(v)) return void errors.push(`${p}: expected a ${shape.name} object, got ${show(v)}`);
    seen.add(shape.name);
    const rest = shape.fields.find((f) => f.name === '*');
    for (const f of shape.fields) {
      if (f.name === '*') continue;
      if (!(f.name in v)) {
        if (!f.optional) errors.push(`${p}: ${shape.name} without "${f.name}"`);
        continue;
      }
      seen.add(`${shape.name}.${f.name}`);
      if (v[f.name] === null) {
        if (!f.nullable) errors.push(`${p}.${f.name}: null, not nullable in ${shape.name}`);
        continue;
      }
      check(f.type, v[f.name], `${p}.${f.name}`);
    }
    for (const k of Object.keys(v)) {
      if (shape.fields.some((f) => f.name === k && f.name !== '*')) continue;
      if (rest === undefined) errors.push(`${p}: "${k}" is not a field of ${shape.name}`);
      else check(rest.type, v[k], `${p}.${k}`);
    }
  };
  check(type, value, path);
  return errors;
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
