export const ROOT: string;
export const WEB_DIST: string;
export function webStale(): boolean;
export function buildWebIfStale(opts?: { quiet?: boolean }): Promise<boolean>;
