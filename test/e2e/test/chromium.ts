// The browser tests' Chromium, page checks and set-up live in @hush/testing/chromium.
export * from '@hush/testing/chromium';
