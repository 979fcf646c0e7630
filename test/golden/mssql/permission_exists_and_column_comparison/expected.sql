-- article
SELECT ISNULL((
  SELECT [t0].[id] AS [id]
  FROM [dbo].[article] AS [t0]
  WHERE ((([t0].[id] > [t0].[author_id])) AND (EXISTS (
    SELECT 1
    FROM [sales].[order] AS [t1]
    WHERE ([t1].[author_id] = CAST(JSON_VALUE(@p1, N'$."x-service-user-id"') AS int))
  )))
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"session"}]
