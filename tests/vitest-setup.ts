/**
 * Runs before every test file. Vitest runs the files of a worker in one process without isolating
 * their modules (`isolate: false`, decision 016: half the suite's time went to importing the app
 * again for every file), so each file starts from the process-wide state a new process would have:
 * the configuration is read again from the environment (a file may stub it), and the captcha, the
 * request limits, the test clock and the kept answers' state (decision 019: no event bus of an earlier
 * file's runtime) start empty. The logger and the loaded translations are kept: they hold no test's state.
 */
const holder = globalThis as Record<string, unknown>;
for (const key of ["__caretakerConfig", "__caretakerCaptcha", "__caretakerResetLimits", "__caretakerReportLimits", "__caretakerClockOffsetMs", "__caretakerKeptAnswers"]) {
  delete holder[key];
}
