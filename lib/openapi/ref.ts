/** A JSON Reference into the OpenAPI document's components: `#/components/<kind>/<name>`. */
export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
