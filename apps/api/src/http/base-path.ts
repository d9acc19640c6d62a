/** The API version is a date in the base path; every route lives under it. */
export const BASE_PATH = '2025-10-13';
