/**
 * caretaker/no-private-members: no `_`-prefixed member of anything but `this`.
 *
 * By convention a leading underscore marks what a library keeps to itself (`pglite._runExclusiveQuery`,
 * Node's `Module._compile`): it changes without notice in any release. Flagged: reading, writing or
 * calling such a member (`a._x`, `a["_x"]`, `a?._x`) and taking it by destructuring (`const { _x } = a`).
 * A class's own members through `this` are its own business, and `#private` fields cannot be reached
 * from outside at all.
 *
 * Option `allow`: patterns (regular expressions) of member names that are not private. The app's
 * configuration allows `^__caretaker`: the app's own process-wide holders on `globalThis`
 * (`__caretakerRuntime`, `__caretakerConfig`, ...), named so to keep out of other code's way.
 * Identifiers such as `__dirname` or a parameter named `_event` are not members and are never flagged.
 */
export default {
  meta: {
    type: "problem",
    docs: { description: "no `_`-prefixed (private) members of other objects" },
    messages: {
      private: "`{{name}}` is private to its owner (a leading underscore): use its public API.",
    },
    schema: [
      {
        type: "object",
        properties: { allow: { type: "array", items: { type: "string" } } },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const allowed = (context.options[0]?.allow ?? []).map((pattern) => new RegExp(pattern));
    const isPrivate = (name) => typeof name === "string" && name.startsWith("_") && !allowed.some((re) => re.test(name));
    const nameOf = (key, computed) => {
      if (!computed && key.type === "Identifier") return key.name;
      if (key.type === "Literal" && typeof key.value === "string") return key.value;
      if (key.type === "TemplateLiteral" && key.expressions.length === 0) return key.quasis[0].value.cooked;
      return null;
    };
    return {
      MemberExpression(node) {
        if (node.object.type === "ThisExpression" || node.property.type === "PrivateIdentifier") return;
        const name = nameOf(node.property, node.computed);
        if (isPrivate(name)) context.report({ node: node.property, messageId: "private", data: { name } });
      },
      ObjectPattern(node) {
        // `const { _x } = this` takes the class's own member.
        if (node.parent?.type === "VariableDeclarator" && node.parent.init?.type === "ThisExpression") return;
        for (const property of node.properties) {
          if (property.type !== "Property") continue;
          const name = nameOf(property.key, property.computed);
          if (isPrivate(name)) context.report({ node: property.key, messageId: "private", data: { name } });
        }
      },
    };
  },
};
