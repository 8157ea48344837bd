CREATE INDEX "products_list_name_idx" ON "products" USING btree ("tenant_id","product_name","product_id");--> statement-breakpoint
CREATE INDEX "products_list_price_idx" ON "products" USING btree ("tenant_id","effective_price","product_id");--> statement-breakpoint
CREATE INDEX "products_list_stock_idx" ON "products" USING btree ("tenant_id","stock_quantity","product_id");--> statement-breakpoint
CREATE INDEX "products_list_created_idx" ON "products" USING btree ("tenant_id","introduction_date","product_id");--> statement-breakpoint
CREATE INDEX "products_list_status_idx" ON "products" USING btree ("tenant_id","status","updated_at","product_id");--> statement-breakpoint
CREATE INDEX "products_list_brand_idx" ON "products" USING btree ("tenant_id","brand_name","updated_at","product_id");--> statement-breakpoint
CREATE INDEX "order_lines_product_idx" ON "order_lines" USING btree ("tenant_id","product_id");