// What the member's home takes (./home.routes.ts): nothing but the page itself.
export const homePage = { hide: true } as const;
