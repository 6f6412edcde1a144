# URL-like lines for the dedup benches (awk -v n=LINES -f bench/dedup_urls.awk):
# about half are new, the rest repeat an earlier line with a heavy-tailed
# choice (recent and popular URLs repeat most), as a crawl frontier does.
# mawk/gawk's srand(1) makes the file the same every run.
BEGIN {
  srand(1); seen = 0
  for (i = 0; i < n; i++) {
    if (seen == 0 || rand() < 0.5) id = seen++
    else { r = rand(); id = int(seen * (1 - r * r * r)); if (id >= seen) id = seen - 1 }
    printf "https://www.site%d.example.com/%s/%d/page-%d.html?ref=%d\n", id % 7919, \
      (id % 3 ? "news" : "shop"), int(id / 7919), id, id % 97
  }
}
