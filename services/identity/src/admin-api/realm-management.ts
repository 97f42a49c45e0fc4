/** The internal id the `realm-management` client shows (it is not an OAuth client of Hush, only the holder of the admin roles). */
export const REALM_MANAGEMENT_CLIENT_ID = 'a0b1c2d3-0000-4000-8000-7265616c6d6d';
