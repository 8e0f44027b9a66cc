/** The sample data of a project scaffolded without `--from-data`: one small CSV table. */
export const DEFAULT_SAMPLE = {
  name: 'products.csv',
  text: `product_id,name,category,unit_price,weekly_sales,discontinued,launched
P-001,Desk lamp,lighting,24.90,130,no,2023-02-14
P-002,Floor lamp,lighting,79.00,42,no,2022-11-02
P-003,Office chair,seating,189.50,18,no,2021-06-30
P-004,Stool,seating,35.00,,yes,2019-03-11
P-005,Bookshelf,storage,120.00,25,no,2022-01-20
P-006,Drawer unit,storage,89.90,31,no,2023-08-05
P-007,Monitor arm,accessories,59.00,77,no,2024-04-18
P-008,Cable tray,accessories,14.50,210,no,2024-01-09
`,
} as const;
