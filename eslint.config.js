import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import noPackageInternals from "./eslint-rules/no-package-internals.js";
import noPrivateMembers from "./eslint-rules/no-private-members.js";
import tenantScope from "./eslint-rules/tenant-scope.js";

/**
 * Lint, including the layering of docs/ARCHITECTURE.md: imports point down only
 * (routes -> http -> modules -> core -> lib/db), production code never imports test code, and the app
 * uses its packages through their public API only (decision 043).
 */
const DB = ["~/db/client*", "~/db/schema*", "**/db/client*", "**/db/schema*", "drizzle-orm", "drizzle-orm/*", "pg", "@electric-sql/pglite"];
const TESTS = { regex: "^#tests/|(^|/)tests/" };
const RUNTIME = ["~/runtime.server", "**/runtime.server"];
const restrict = (...groups) => [
  "error",
  { patterns: groups.map(([group, message]) => (Array.isArray(group) ? { group, message } : { ...group, message })) },
];

const noTests = [TESTS, "Production code never imports test code (tests/)."];

/** Dates are written by one helper in the entity's time zone (app/lib/dates.ts, decision 044). */
const DATE_MESSAGE = "Write dates with app/lib/dates.ts: useDates() on a screen, dateFormats(locale, ctx.timeZone) on the server (decision 044).";
const ONE_DATE_HELPER = [
  { selector: "NewExpression[callee.object.name='Intl'][callee.property.name='DateTimeFormat']", message: DATE_MESSAGE },
  { selector: "CallExpression[callee.property.name=/^toLocale(Date|Time)String$/]", message: DATE_MESSAGE },
  { selector: "ImportDeclaration[source.value='~/lib/intl'] ImportSpecifier[imported.name='dateTimeFormat']", message: DATE_MESSAGE },
  {
    selector: "Literal[value='Europe/Brussels']",
    message: "The time zone is the entity's: ctx.timeZone on the server, useDates() on a screen (DEFAULT_TIME_ZONE where there is no entity).",
  },
];
const noRuntime = [RUNTIME, "The runtime reaches routes through the load context (context.runtime), never as a global."];

export default tseslint.config(
  {
    ignores: ["build/**", "data/**", "node_modules/**", "test-results/**", "playwright-report/**", "app/db/migrations/**", "tmp/**", "tests/lint-fixtures/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: {
      "react-hooks": reactHooks,
      caretaker: { rules: { "tenant-scope": tenantScope, "no-package-internals": noPackageInternals, "no-private-members": noPrivateMembers } },
    },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // The framework as published (decision 043): no package's internal files, no other object's
    // `_`-prefixed members, no module internal to Vite (vite.config.ts). Allowed: `__caretaker*`, the app's
    // own holders on globalThis.
    files: ["app/**/*.{ts,tsx}", "server.ts", "server/**/*.ts", "vite.config.ts"],
    rules: {
      "caretaker/no-package-internals": "error",
      "caretaker/no-private-members": ["error", { allow: ["^__caretaker"] }],
    },
  },
  {
    // Production code: no test code, anywhere.
    files: ["app/**/*.{ts,tsx}", "server.ts", "server/**/*.ts"],
    ignores: ["app/**/*.test.{ts,tsx}"],
    rules: { "no-restricted-imports": restrict(noTests) },
  },
  {
    // app/lib: pure helpers, a leaf that imports nothing else of the app.
    files: ["app/lib/**/*.{ts,tsx}"],
    ignores: ["app/**/*.test.{ts,tsx}"],
    rules: { "no-restricted-imports": restrict(noTests, [["~/*", "!~/lib", "!~/lib/*"], "app/lib is a leaf: it imports nothing else of the app."]) },
  },
  {
    // app/core: the service context, unit of work and jobs: below the modules.
    files: ["app/core/**/*.ts"],
    ignores: ["app/**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict(noTests, noRuntime, [
        ["~/modules/*", "~/http/*", "~/routes/*", "~/components/*", "~/jobs/*", "~/root"],
        "app/core sits below the modules: it imports only lib, db and itself.",
      ]),
    },
  },
  {
    // The domain: modules never import a transport, a route or the runtime.
    files: ["app/modules/**/*.{ts,tsx}", "app/mail/**/*.ts"],
    ignores: ["app/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": restrict(noTests, noRuntime, [
        ["~/http/*", "~/routes/*", "~/components/*", "~/root", "~/jobs/registry*"],
        "Modules are below the transports: they never import app/http, routes or components.",
      ]),
      "caretaker/tenant-scope": "error",
    },
  },
  {
    // Transports: adapt input and errors; no database access of their own, no routes.
    files: ["app/http/**/*.ts"],
    ignores: ["app/**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict(noTests, noRuntime, [DB, "app/http does not access the database: it calls modules."], [
        ["~/routes/*", "~/components/*"],
        "app/http sits below the routes.",
      ]),
    },
  },
  {
    // The service rule: routes (and the root route) never touch the database or the runtime global.
    files: ["app/routes/**/*.{ts,tsx}", "app/root.tsx"],
    rules: {
      "no-restricted-imports": restrict(noTests, noRuntime, [
        DB,
        "Routes do not access the database: call a service or query in app/modules/<area>.",
      ]),
    },
  },
  {
    // One date helper, one time zone: no date formatted or zone named elsewhere.
    files: ["app/**/*.{ts,tsx}", "server.ts", "server/**/*.ts"],
    ignores: ["app/lib/dates.ts", "app/lib/intl.ts", "app/db/schema/**", "app/**/*.test.{ts,tsx}"],
    rules: { "no-restricted-syntax": ["error", ...ONE_DATE_HELPER] },
  },
  {
    // Posted bodies are read in one place, so that an unreadable one answers 400, never 500.
    files: ["app/routes/**/*.{ts,tsx}", "app/http/**/*.ts", "app/root.tsx"],
    ignores: ["app/http/form-action.server.ts", "app/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name='formData'][arguments.length=0]",
          message: "Read a posted form with formDataOf or readFormData (~/http/form-action.server): an unreadable body then answers 400.",
        },
        // (this block's rule replaces the one above for these files: it repeats its selectors)
        ...ONE_DATE_HELPER,
      ],
    },
  },
);
