// biome-ignore lint/suspicious/noEmptyInterface: the catalog's tables are declared as the domain grows
export interface CatalogTables {}
