// Applies the learner's theme choice (Settings › Appearance) before the first paint, so a page
// never flashes in the other scheme. A classic script in <head>, not inline: the
// Content-Security-Policy allows scripts from this origin only. Keep in step with
// src/store/theme-store.ts (its test runs this file).
(function () {
  try {
    var choice = window.localStorage.getItem('tutorloop.theme');
    if (choice === 'light' || choice === 'dark') document.documentElement.setAttribute('data-theme', choice);
  } catch (error) {
    // Storage disabled: the system's scheme applies.
  }
})();
