# written by sbf-bench for scripts/*.gp
isas = "scalar simde avx2 avx512"
nisa = 4
defisa = "avx512"
layouts = "classic blocked split-block counting parquet split-block-xxh3 blocked-xxh3 counting-xxh3"
sizes = "L1 L2 L3 DRAM"
have_tput = 1
have_lat = 1
lat_chain_1_files = "lat_0.dat lat_1.dat lat_5.dat lat_6.dat lat_10.dat lat_11.dat lat_15.dat lat_16.dat lat_20.dat lat_21.dat lat_25.dat lat_26.dat lat_30.dat lat_31.dat lat_35.dat lat_36.dat"
lat_chain_1_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1 parquet/pos,G=1 parquet/neg,G=1 split-block-xxh3/pos,G=1 split-block-xxh3/neg,G=1 blocked-xxh3/pos,G=1 blocked-xxh3/neg,G=1 counting-xxh3/pos,G=1 counting-xxh3/neg,G=1"
lat_chain_1_xmin = 8.01198
lat_chain_1_xmax = 45.0674
lat_indep_1_files = "lat_2.dat lat_3.dat lat_7.dat lat_8.dat lat_12.dat lat_13.dat lat_17.dat lat_18.dat lat_22.dat lat_23.dat lat_27.dat lat_28.dat lat_32.dat lat_33.dat lat_37.dat lat_38.dat"
lat_indep_1_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=7 blocked/neg,G=7 split-block/pos,G=8 split-block/neg,G=8 counting/pos,G=6 counting/neg,G=6 parquet/pos,G=6 parquet/neg,G=6 split-block-xxh3/pos,G=7 split-block-xxh3/neg,G=7 blocked-xxh3/pos,G=6 blocked-xxh3/neg,G=6 counting-xxh3/pos,G=7 counting-xxh3/neg,G=7"
lat_indep_1_xmin = 2.003
lat_indep_1_xmax = 30.0449
lat_batch_1_files = "lat_4.dat lat_9.dat lat_14.dat lat_19.dat lat_24.dat lat_29.dat lat_34.dat lat_39.dat"
lat_batch_1_titles = "classic,G=1 blocked,G=1 split-block,G=1 counting,G=1 parquet,G=1 split-block-xxh3,G=1 blocked-xxh3,G=1 counting-xxh3,G=1"
lat_batch_1_xmin = 168.252
lat_batch_1_xmax = 2606.98
lat_chain_2_files = "lat_40.dat lat_41.dat lat_45.dat lat_46.dat lat_50.dat lat_51.dat lat_55.dat lat_56.dat lat_60.dat lat_61.dat lat_65.dat lat_66.dat lat_70.dat lat_71.dat lat_75.dat lat_76.dat"
lat_chain_2_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1 parquet/pos,G=1 parquet/neg,G=1 split-block-xxh3/pos,G=1 split-block-xxh3/neg,G=1 blocked-xxh3/pos,G=1 blocked-xxh3/neg,G=1 counting-xxh3/pos,G=1 counting-xxh3/neg,G=1"
lat_chain_2_xmin = 8.01198
lat_chain_2_xmax = 330.494
lat_indep_2_files = "lat_42.dat lat_43.dat lat_47.dat lat_48.dat lat_52.dat lat_53.dat lat_57.dat lat_58.dat lat_62.dat lat_63.dat lat_67.dat lat_68.dat lat_72.dat lat_73.dat lat_77.dat lat_78.dat"
lat_indep_2_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=6 blocked/neg,G=6 split-block/pos,G=7 split-block/neg,G=7 counting/pos,G=6 counting/neg,G=6 parquet/pos,G=6 parquet/neg,G=6 split-block-xxh3/pos,G=7 split-block-xxh3/neg,G=6 blocked-xxh3/pos,G=6 blocked-xxh3/neg,G=5 counting-xxh3/pos,G=6 counting-xxh3/neg,G=7"
lat_indep_2_xmin = 2.28914
lat_indep_2_xmax = 45.0674
lat_batch_2_files = "lat_44.dat lat_49.dat lat_54.dat lat_59.dat lat_64.dat lat_69.dat lat_74.dat lat_79.dat"
lat_batch_2_titles = "classic,G=1 blocked,G=1 split-block,G=1 counting,G=1 parquet,G=1 split-block-xxh3,G=1 blocked-xxh3,G=1 counting-xxh3,G=1"
lat_batch_2_xmin = 176.264
lat_batch_2_xmax = 3198.63
lat_chain_3_files = "lat_80.dat lat_81.dat lat_85.dat lat_86.dat lat_90.dat lat_91.dat lat_95.dat lat_96.dat lat_100.dat lat_101.dat lat_105.dat lat_106.dat lat_110.dat lat_111.dat lat_115.dat lat_116.dat"
lat_chain_3_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1 parquet/pos,G=1 parquet/neg,G=1 split-block-xxh3/pos,G=1 split-block-xxh3/neg,G=1 blocked-xxh3/pos,G=1 blocked-xxh3/neg,G=1 counting-xxh3/pos,G=1 counting-xxh3/neg,G=1"
lat_chain_3_xmin = 8.01198
lat_chain_3_xmax = 1086.24
lat_indep_3_files = "lat_82.dat lat_83.dat lat_87.dat lat_88.dat lat_92.dat lat_93.dat lat_97.dat lat_98.dat lat_102.dat lat_103.dat lat_107.dat lat_108.dat lat_112.dat lat_113.dat lat_117.dat lat_118.dat"
lat_indep_3_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1 parquet/pos,G=1 parquet/neg,G=1 split-block-xxh3/pos,G=1 split-block-xxh3/neg,G=1 blocked-xxh3/pos,G=1 blocked-xxh3/neg,G=1 counting-xxh3/pos,G=1 counting-xxh3/neg,G=1"
lat_indep_3_xmin = 8.01198
lat_indep_3_xmax = 1095.48
lat_batch_3_files = "lat_84.dat lat_89.dat lat_94.dat lat_99.dat lat_104.dat lat_109.dat lat_114.dat lat_119.dat"
lat_batch_3_titles = "classic,G=1 blocked,G=1 split-block,G=1 counting,G=1 parquet,G=1 split-block-xxh3,G=1 blocked-xxh3,G=1 counting-xxh3,G=1"
lat_batch_3_xmin = 216.324
lat_batch_3_xmax = 48811.5
lat_chain_4_files = "lat_120.dat lat_121.dat lat_125.dat lat_126.dat lat_130.dat lat_131.dat lat_135.dat lat_136.dat lat_140.dat lat_141.dat lat_145.dat lat_146.dat lat_150.dat lat_151.dat lat_155.dat lat_156.dat"
lat_chain_4_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1 parquet/pos,G=1 parquet/neg,G=1 split-block-xxh3/pos,G=1 split-block-xxh3/neg,G=1 blocked-xxh3/pos,G=1 blocked-xxh3/neg,G=1 counting-xxh3/pos,G=1 counting-xxh3/neg,G=1"
lat_chain_4_xmin = 8.01198
lat_chain_4_xmax = 3272.59
lat_indep_4_files = "lat_122.dat lat_123.dat lat_127.dat lat_128.dat lat_132.dat lat_133.dat lat_137.dat lat_138.dat lat_142.dat lat_143.dat lat_147.dat lat_148.dat lat_152.dat lat_153.dat lat_157.dat lat_158.dat"
lat_indep_4_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1 parquet/pos,G=1 parquet/neg,G=1 split-block-xxh3/pos,G=1 split-block-xxh3/neg,G=1 blocked-xxh3/pos,G=1 blocked-xxh3/neg,G=1 counting-xxh3/pos,G=1 counting-xxh3/neg,G=1"
lat_indep_4_xmin = 8.01198
lat_indep_4_xmax = 47036.5
lat_batch_4_files = "lat_124.dat lat_129.dat lat_134.dat lat_139.dat lat_144.dat lat_149.dat lat_154.dat lat_159.dat"
lat_batch_4_titles = "classic,G=1 blocked,G=1 split-block,G=1 counting,G=1 parquet,G=1 split-block-xxh3,G=1 blocked-xxh3,G=1 counting-xxh3,G=1"
lat_batch_4_xmin = 801.198
lat_batch_4_xmax = 116556
have_fpr = 1
plots = "throughput latency fpr"
