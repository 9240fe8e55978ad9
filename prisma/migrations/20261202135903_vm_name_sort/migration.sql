-- AlterTable
ALTER TABLE "virtual_machines" ADD COLUMN     "nameSort" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "virtual_machines_name_sort_idx" ON "virtual_machines"("nameSort", "id");
