# written by sbf-bench for scripts/*.gp
isas = "scalar simde avx2 avx512"
nisa = 4
defisa = "avx512"
layouts = "classic blocked split-block counting"
sizes = "L1 L2 L3 DRAM"
have_tput = 1
have_lat = 1
lat_chain_1_files = "lat_0.dat lat_1.dat lat_5.dat lat_6.dat lat_10.dat lat_11.dat lat_15.dat lat_16.dat"
lat_chain_1_titles = "classic/pos,G=35 classic/neg,G=23 blocked/pos,G=28 blocked/neg,G=28 split-block/pos,G=33 split-block/neg,G=33 counting/pos,G=29 counting/neg,G=29"
lat_chain_1_xmin = 7.31512
lat_chain_1_xmax = 35.1688
lat_indep_1_files = "lat_2.dat lat_3.dat lat_7.dat lat_8.dat lat_12.dat lat_13.dat lat_17.dat lat_18.dat"
lat_indep_1_titles = "classic/pos,G=35 classic/neg,G=23 blocked/pos,G=79 blocked/neg,G=77 split-block/pos,G=79 split-block/neg,G=79 counting/pos,G=79 counting/neg,G=79"
lat_indep_1_xmin = 4.6651
lat_indep_1_xmax = 34.7669
lat_batch_1_files = "lat_4.dat lat_9.dat lat_14.dat lat_19.dat"
lat_batch_1_titles = "classic,G=1 blocked,G=1 split-block,G=1 counting,G=1"
lat_batch_1_xmin = 312.46
lat_batch_1_xmax = 12646.3
lat_chain_2_files = "lat_20.dat lat_21.dat lat_25.dat lat_26.dat lat_30.dat lat_31.dat lat_35.dat lat_36.dat"
lat_chain_2_titles = "classic/pos,G=35 classic/neg,G=21 blocked/pos,G=25 blocked/neg,G=25 split-block/pos,G=28 split-block/neg,G=29 counting/pos,G=25 counting/neg,G=25"
lat_chain_2_xmin = 9.15634
lat_chain_2_xmax = 50.8441
lat_indep_2_files = "lat_22.dat lat_23.dat lat_27.dat lat_28.dat lat_32.dat lat_33.dat lat_37.dat lat_38.dat"
lat_indep_2_titles = "classic/pos,G=36 classic/neg,G=22 blocked/pos,G=79 blocked/neg,G=52 split-block/pos,G=79 split-block/neg,G=79 counting/pos,G=77 counting/neg,G=75"
lat_indep_2_xmin = 4.6651
lat_indep_2_xmax = 51.8946
lat_batch_2_files = "lat_24.dat lat_29.dat lat_34.dat lat_39.dat"
lat_batch_2_titles = "classic,G=1 blocked,G=1 split-block,G=1 counting,G=1"
lat_batch_2_xmin = 344.507
lat_batch_2_xmax = 39344.1
lat_chain_3_files = "lat_40.dat lat_41.dat lat_45.dat lat_46.dat lat_50.dat lat_51.dat lat_55.dat lat_56.dat"
lat_chain_3_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1"
lat_chain_3_xmin = 8.01179
lat_chain_3_xmax = 1211.01
lat_indep_3_files = "lat_42.dat lat_43.dat lat_47.dat lat_48.dat lat_52.dat lat_53.dat lat_57.dat lat_58.dat"
lat_indep_3_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1"
lat_indep_3_xmin = 8.01179
lat_indep_3_xmax = 1395.9
lat_batch_3_files = "lat_44.dat lat_49.dat lat_54.dat lat_59.dat"
lat_batch_3_titles = "classic,G=1 blocked,G=1 split-block,G=1 counting,G=1"
lat_batch_3_xmin = 520.767
lat_batch_3_xmax = 102354
lat_chain_4_files = "lat_60.dat lat_61.dat lat_65.dat lat_66.dat lat_70.dat lat_71.dat lat_75.dat lat_76.dat"
lat_chain_4_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1"
lat_chain_4_xmin = 8.01179
lat_chain_4_xmax = 17231.5
lat_indep_4_files = "lat_62.dat lat_63.dat lat_67.dat lat_68.dat lat_72.dat lat_73.dat lat_77.dat lat_78.dat"
lat_indep_4_titles = "classic/pos,G=1 classic/neg,G=1 blocked/pos,G=1 blocked/neg,G=1 split-block/pos,G=1 split-block/neg,G=1 counting/pos,G=1 counting/neg,G=1"
lat_indep_4_xmin = 8.01179
lat_indep_4_xmax = 18858.5
lat_batch_4_files = "lat_64.dat lat_69.dat lat_74.dat lat_79.dat"
lat_batch_4_titles = "classic,G=1 blocked,G=1 split-block,G=1 counting,G=1"
lat_batch_4_xmin = 1930.84
lat_batch_4_xmax = 157376
have_fpr = 1
plots = "throughput latency fpr"
