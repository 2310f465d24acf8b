// Chat panel entry point (being built: see issue 6).
export {};
