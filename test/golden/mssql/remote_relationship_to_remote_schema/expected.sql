-- author
SELECT ISNULL((
  SELECT [t0].[name] AS [name], [t0].[id] AS [__reviews_id]
  FROM [dbo].[author] AS [t0]
  WHERE (([t0].[id] < CAST(@p1 AS int)))
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"literal","value":"10","query":true}]
-- 1 remote reviews: ["reviews(first: 3, author_id: ",") {\n  stars: stars\n  text: text\n}"]
