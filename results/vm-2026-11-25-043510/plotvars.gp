# written by sbf-bench for scripts/*.gp
isas = "scalar simde avx2 avx512"
nisa = 4
defisa = "avx512"
layouts = "classic blocked split-block counting parquet"
sizes = "L1 L2 L3 DRAM"
have_tput = 1
have_lat = 1
lat_chain_1_files = "lat_0.dat lat_1.dat lat_5.dat lat_6.dat lat_10.dat lat_11.dat lat_15.dat lat_16.dat lat_20.dat lat_21.dat"
lat_chain_1_titles = "classic/pos,G=28 classic/neg,G=25 blocked/pos,G=26 blocked/neg,G=27 split-block/pos,G=30 split-block/neg,G=30 counting/pos,G=27 counting/neg,G=27 parquet/pos,G=37 parquet/neg,G=38"
lat_chain_1_xmin = 6.40954
lat_chain_1_xmax = 35.3141
lat_indep_1_files = "lat_2.dat lat_3.dat lat_7.dat lat_8.dat lat_12.dat lat_13.dat lat_17.dat lat_18.dat lat_22.dat lat_23.dat"
lat_indep_1_titles = "classic/pos,G=29 classic/neg,G=27 blocked/pos,G=160 blocked/neg,G=160 split-block/pos,G=178 split-block/neg,G=169 counting/pos,G=153 counting/neg,G=153 parquet/pos,G=134 parquet/neg,G=128"
lat_indep_1_xmin = 1.94372
lat_indep_1_xmax = 34.0678
lat_batch_1_files = "lat_4.dat lat_9.dat lat_14.dat lat_19.dat lat_24.dat"
lat_batch_1_titles = "classic,G=1 blocked,G=1 split-block,G=1 counting,G=1 parquet,G=1"
lat_batch_1_xmin = 176.262
lat_batch_1_xmax = 23222.2
lat_chain_2_files = "lat_25.dat lat_26.dat lat_30.dat lat_31.dat lat_35.dat lat_36.dat lat_40.dat lat_41.dat lat_45.dat lat_46.dat"
lat_chain_2_titles = "classic/pos,G=27 classic/neg,G=23 blocked/pos,G=24 blocked/neg,G=24 split-block/pos,G=27 split-block/neg,G=28 counting/pos,G=25 counting/neg,G=25 parquet/pos,G=31 parquet/neg,G=32"
lat_chain_2_xmin = 7.31523
lat_chain_2_xmax = 44.4139
lat_indep_2_files = "lat_27.dat lat_28.dat lat_32.dat lat_33.dat lat_37.dat lat_38.dat lat_42.dat lat_43.dat lat_47.dat lat_48.dat"
lat_indep_2_titles = "classic/pos,G=27 classic/neg,G=24 blocked/pos,G=153 blocked/neg,G=153 split-block/pos,G=178 split-block/neg,G=169 counting/pos,G=146 counting/neg,G=146 parquet/pos,G=124 parquet/neg,G=124"
lat_indep_2_xmin = 2.0705
lat_indep_2_xmax = 43.3337
lat_batch_2_files = "lat_29.dat lat_34.dat lat_39.dat lat_44.dat lat_49.dat"
lat_batch_2_titles = "classic,G=1 blocked,G=1 split-block,G=1 counting,G=1 parquet,G=1"
lat_batch_2_xmin = 176.262
lat_batch_2_xmax = 56502.5
lat_chain_3_files = "lat_50.dat lat_51.dat lat_55.dat lat_56.dat lat_60.dat lat_61.dat lat_65.dat lat_66.dat lat_70.dat lat_71.dat"
lat_chain_3_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1 parquet/pos,G=1 parquet/neg,G=1"
lat_chain_3_xmin = 8.01192
lat_chain_3_xmax = 543.116
lat_indep_3_files = "lat_52.dat lat_53.dat lat_57.dat lat_58.dat lat_62.dat lat_63.dat lat_67.dat lat_68.dat lat_72.dat lat_73.dat"
lat_indep_3_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1 parquet/pos,G=1 parquet/neg,G=1"
lat_indep_3_xmin = 8.01192
lat_indep_3_xmax = 543.116
lat_batch_3_files = "lat_54.dat lat_59.dat lat_64.dat lat_69.dat lat_74.dat"
lat_batch_3_titles = "classic,G=1 blocked,G=1 split-block,G=1 counting,G=1 parquet,G=1"
lat_batch_3_xmin = 216.322
lat_batch_3_xmax = 44077.9
lat_chain_4_files = "lat_75.dat lat_76.dat lat_80.dat lat_81.dat lat_85.dat lat_86.dat lat_90.dat lat_91.dat lat_95.dat lat_96.dat"
lat_chain_4_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1 parquet/pos,G=1 parquet/neg,G=1"
lat_chain_4_xmin = 8.01192
lat_chain_4_xmax = 2006.06
lat_indep_4_files = "lat_77.dat lat_78.dat lat_82.dat lat_83.dat lat_87.dat lat_88.dat lat_92.dat lat_93.dat lat_97.dat lat_98.dat"
lat_indep_4_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1 parquet/pos,G=1 parquet/neg,G=1"
lat_indep_4_xmin = 8.01192
lat_indep_4_xmax = 2006.06
lat_batch_4_files = "lat_79.dat lat_84.dat lat_89.dat lat_94.dat lat_99.dat"
lat_batch_4_titles = "classic,G=1 blocked,G=1 split-block,G=1 counting,G=1 parquet,G=1"
lat_batch_4_xmin = 817.216
lat_batch_4_xmax = 111822
have_fpr = 1
plots = "throughput latency fpr"
