/*
 * The admin console is used by no other feature: app.ts mounts it (mount.ts), and this empty
 * surface keeps every other folder out of its files.
 */
export {};
