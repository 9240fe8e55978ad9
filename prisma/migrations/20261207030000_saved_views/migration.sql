-- Saved views of the Servers page (docs/behaviour.md §9.47): a user's named query strings.
-- CreateTable
CREATE TABLE "saved_views" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "saved_views_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "saved_views_user_name_key" ON "saved_views"("userId", "name");

-- AddForeignKey
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_user_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Names are unique per user without regard to case; Prisma cannot express an index on lower().
CREATE UNIQUE INDEX "saved_views_user_name_lower_key" ON "saved_views" ("userId", lower("name"));
