DROP TABLE quota_buckets;
