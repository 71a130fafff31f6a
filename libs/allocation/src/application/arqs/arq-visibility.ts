/** Which requests a caller may see: one project's, or (admins) all. */
export type ArqVisibility = { readonly project: string } | 'all-projects';
