/**
 * The browser's translator (decision 033): the part of i18next the pages use, a small fraction of
 * i18next's size. The server keeps i18next (remix-i18next); the browser only has to give the same texts as the
 * server for hydration, so this implements i18next's own rules for what the app's texts use: namespaces
 * (`ns:key`), key paths, key prefixes, cardinal plurals with `_zero` for a count of 0 (Intl.PluralRules),
 * `_context`, default values, `{{name}}` values (not escaped, as `escapeValue: false` has it; a value not
 * given keeps its placeholder) and a missing key answered by the key. It has no formats, no nesting
 * (`$t(...)`), no ordinals, no keys with dots and no objects: tests/unit/locales.test.ts keeps those out of the texts, and
 * app/lib/translator.test.ts compares every key of every language with i18next's own answer.
 *
 * It offers react-i18next (useTranslation, I18nextProvider) and remix-i18next (useChangeLanguage) what
 * they read of an i18next instance: options, language(s), getFixedT, events, namespace loading and
 * changeLanguage.
 */
export type Texts = Record<string, unknown>;
/** One language's texts: namespace → nested keys. */
export type Bundle = Record<string, Texts>;
type Values = Record<string, unknown>;
type Listener = (...args: unknown[]) => void;

/** i18next's valid answer: anything but undefined and null (an empty text is a text). */
const valid = (text: unknown) => text !== undefined && text !== null;
const own = (object: unknown, key: string) => typeof object === "object" && object !== null && Object.prototype.hasOwnProperty.call(object, key);

/** The key path's text (no key of app/locales holds a dot: tests/unit/locales.test.ts). */
function lookup(tree: unknown, key: string): unknown {
  let node: unknown = tree;
  for (const part of key.split(".")) node = own(node, part) ? (node as Texts)[part] : undefined;
  return node;
}

/** i18next's placeholders: `{{- name}}` first, then `{{name}}`; the text is searched again after each value. */
const PLACEHOLDERS = [/\{\{-(.+?)\}\}/g, /\{\{(.+?)\}\}/g];

function interpolate(text: string, values: Values): string {
  let str = text;
  for (const pattern of PLACEHOLDERS) {
    pattern.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = pattern.exec(str))) {
      const name = match[1].trim();
      let value: unknown = own(values, name) ? values[name] : undefined;
      if (value === undefined) {
        if (!own(values, name)) continue;
        value = "";
      }
      const replacement = value === null ? "" : String(value);
      // As i18next does: the first occurrence of the placeholder's text, taken literally.
      str = str.replace(match[0], () => replacement);
      pattern.lastIndex += replacement.length - match[0].length;
    }
  }
  return str;
}

/** i18next's test for a key that is a sentence rather than a path (then `:` is not a namespace). */
function looksLikePath(key: string): boolean {
  const natural = /( |,|\?|!|;)/;
  if (!natural.test(key)) return true;
  const dot = key.indexOf(".");
  return dot > 0 && !natural.test(key.slice(0, dot));
}

type Options = Values & { ns?: string | string[]; lng?: string | null; keyPrefix?: string; count?: unknown; context?: unknown; defaultValue?: unknown; replace?: unknown };

export type Translator = ReturnType<typeof createTranslator>;

export function createTranslator(settings: { lng: string; defaultNS: string; ns: string[]; react?: Values; load: (lng: string) => Promise<Bundle> }) {
  const bundles = new Map<string, Bundle>();
  const listeners = new Map<string, Set<Listener>>();
  const rules = new Map<string, Intl.PluralRules>();
  const plural = (lng: string, count: number) => {
    let rule = rules.get(lng);
    if (!rule) rules.set(lng, (rule = new Intl.PluralRules(lng)));
    return `_${rule.select(count)}`;
  };

  /** i18next's `resolve`: the first key, namespace and plural or context form that has a text. */
  function resolve(keys: unknown, options: Options) {
    const list = (Array.isArray(keys) ? keys : [keys]).map(String);
    const lng = options.lng || self.language;
    const texts = bundles.get(lng) ?? {};
    const split = (key: string) => {
      let namespaces: string | string[] = options.ns || settings.defaultNS;
      if (key.includes(":") && looksLikePath(key) && !/\$t\(.+?\)/.test(key)) {
        const parts = key.split(":");
        namespaces = parts.shift() as string;
        key = parts.join(".");
      }
      return { key, namespaces: typeof namespaces === "string" ? [namespaces] : namespaces };
    };
    const counted = options.count !== undefined && typeof options.count !== "string";
    const suffix = counted ? plural(lng, options.count as number) : "";
    const zero = counted && options.count === 0;
    const context = options.context;
    const withContext = context !== undefined && (typeof context === "string" || typeof context === "number") && context !== "";
    const forms = (key: string) => (counted ? [key, key + suffix, ...(zero ? [`${key}_zero`] : [])] : [key]);
    let found: unknown;
    for (const candidate of list) {
      const { key, namespaces } = split(candidate);
      const tries = [...forms(key), ...(withContext ? forms(`${key}_${String(context)}`) : [])];
      for (const ns of namespaces) {
        for (let i = tries.length - 1; i >= 0 && !valid(found); i--) found = lookup(texts[ns], tries[i]);
        if (valid(found)) break;
      }
      if (valid(found)) break;
    }
    return { found, key: split(list[list.length - 1]).key, suffix, zero };
  }

  function translate(keys: unknown, options: Options): unknown {
    if (keys === undefined || keys === null) return "";
    const { found, key, suffix, zero } = resolve(keys, options);
    let text = found;
    if (typeof text === "object" && text !== null) return `key '${key} (${self.language})' returned an object instead of string.`;
    if (!valid(text) && Object.keys(options).some((name) => name.startsWith("defaultValue") && options[name] !== undefined)) {
      text = (zero && options.defaultValue_zero) || options[`defaultValue${suffix}`] || options.defaultValue;
    }
    if (!valid(text)) text = key;
    if (typeof text !== "string") return text;
    const values = options.replace && typeof options.replace !== "string" ? (options.replace as Values) : options;
    return interpolate(text, values);
  }

  /** i18next's reading of `t`'s arguments: options, a default value, or a default value and options. */
  function optionsOf(args: unknown[]): Options {
    const [, second, third, fourth] = args;
    if (typeof second === "object" && second !== null) return { ...(second as Options) };
    const options: Options = {};
    if (typeof second === "string") options.defaultValue = second;
    const more = (fourth ?? third) as Options | undefined;
    if (typeof more === "object" && more !== null) Object.assign(options, more);
    return options;
  }

  const self = {
    language: settings.lng,
    languages: [settings.lng],
    isInitialized: false,
    options: { defaultNS: settings.defaultNS, ns: settings.ns, react: settings.react ?? {} },
    services: {},
    store: { on() {}, off() {} },
    /** Loads the language's texts: the page hydrates once they are here. */
    async init(): Promise<void> {
      bundles.set(self.language, await settings.load(self.language));
      self.isInitialized = true;
      emit("initialized");
    },
    use(plugin: { type?: string; init?: (instance: never) => void }) {
      if (plugin.type === "3rdParty") plugin.init?.(self as never);
      return self;
    },
    t(...args: unknown[]) {
      return translate(args[0], optionsOf(args));
    },
    getFixedT(lng?: string | null, ns?: string | string[] | null, keyPrefix?: string) {
      const fixed = (key: unknown, ...rest: unknown[]) => {
        const options = optionsOf([key, ...rest]);
        options.lng ||= lng;
        options.ns ||= ns ?? undefined;
        if (options.keyPrefix !== "") options.keyPrefix ||= keyPrefix;
        const prefix = options.keyPrefix;
        const full = prefix ? (Array.isArray(key) ? key.map((k) => `${prefix}.${String(k)}`) : `${prefix}.${String(key)}`) : key;
        return translate(full, options);
      };
      return Object.assign(fixed, { lng, ns, keyPrefix });
    },
    exists(key: unknown, options: Options = {}) {
      return key !== undefined && key !== null && resolve(key, options).found !== undefined;
    },
    getResourceBundle(lng: string, ns: string) {
      return bundles.get(lng)?.[ns];
    },
    hasLoadedNamespace() {
      return bundles.has(self.language);
    },
    loadNamespaces(_ns: unknown, callback?: () => void) {
      callback?.();
      return Promise.resolve();
    },
    loadLanguages(lng: string, callback?: () => void) {
      void ensure(lng).then(() => callback?.());
    },
    async changeLanguage(lng: string) {
      if (lng && lng !== self.language) {
        await ensure(lng);
        self.language = lng;
        self.languages = [lng];
        emit("languageChanged", lng);
      }
      return self.getFixedT(null, null);
    },
    on(event: string, listener: Listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
    },
    off(event: string, listener?: Listener) {
      if (listener) listeners.get(event)?.delete(listener);
      else listeners.delete(event);
    },
  };

  async function ensure(lng: string) {
    if (!bundles.has(lng)) bundles.set(lng, await settings.load(lng));
  }
  function emit(event: string, ...args: unknown[]) {
    for (const listener of [...(listeners.get(event) ?? [])]) listener(...args);
  }

  return self;
}
