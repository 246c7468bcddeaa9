"""The summary fields' names and units, as the models declare them.

Generated from model_kinds() (engine/models.cpp) and shared_point_fields()
(runs/point_fields.cpp) by `build/collnoise reference docs/reference --python python/collnoise/fields.py`; do not edit by hand.
tests/runs/test_reference_docs.cpp fails when this file differs from the declarations.
docs/reference/summary-fields.md says what each field means. A module of the package
names a field as `fields.<name>`, never as a string of its own.
"""

from types import SimpleNamespace

confidence = "confidence"
warnings = "warnings"
precision_met = "precision_met"
precision_samples = "precision_samples"
precision_batches = "precision_batches"
precision_predicted_samples = "precision_predicted_samples"
precision_max_samples = "precision_max_samples"
precision_min_samples = "precision_min_samples"
precision_mean_target = "precision_mean_target"
precision_mean_achieved = "precision_mean_achieved"
precision_quantile = "precision_quantile"
precision_quantile_target = "precision_quantile_target"
precision_quantile_achieved = "precision_quantile_achieved"
precision_note = "precision_note"
bounds_decided = "bounds_decided"
curve = "curve"
efficiency_target = "efficiency_target"
p = "p"
m = "m"
W = "W"
W_ci_low = "W_ci_low"
W_ci_high = "W_ci_high"
W_exact = "W_exact"
W_ci_method = "W_ci_method"
T_q = "T_q"
T_q_ci_low = "T_q_ci_low"
T_q_ci_high = "T_q_ci_high"
T_o = "T_o"
T_o_ci_low = "T_o_ci_low"
T_o_ci_high = "T_o_ci_high"
samples_per_m = "samples_per_m"
growth_exponent = "growth_exponent"
growth_exponent_ci_low = "growth_exponent_ci_low"
growth_exponent_ci_high = "growth_exponent_ci_high"
predicted_exponent = "predicted_exponent"
scalable = "scalable"
scalable_note = "scalable_note"
W_note = "W_note"
efficiency_any_W = "efficiency_any_W"
surface_W = "surface_W"
surface_m = "surface_m"
surface_E = "surface_E"
target_time = "target_time"
nhalf_paper_approx = "nhalf_paper_approx"
nhalf_paper_formula = "nhalf_paper_formula"
nhalf_exact = "nhalf_exact"
nhalf_exact_string = "nhalf_exact_string"
nhalf_exact_resolved = "nhalf_exact_resolved"
nhalf_exact_low = "nhalf_exact_low"
nhalf_exact_low_string = "nhalf_exact_low_string"
nhalf_exact_high = "nhalf_exact_high"
nhalf_exact_high_string = "nhalf_exact_high_string"
nhalf_exact_note = "nhalf_exact_note"
nhalf_full_tree = "nhalf_full_tree"
nhalf_full_tree_string = "nhalf_full_tree_string"
nhalf_full_tree_levels = "nhalf_full_tree_levels"
paper_relative_error = "paper_relative_error"
check_N_half = "check_N_half"
check_N_half_string = "check_N_half_string"
check_N_double = "check_N_double"
check_N_double_string = "check_N_double_string"
check_confidence = "check_confidence"
check_samples = "check_samples"
check_ci_method = "check_ci_method"
check_below_mean = "check_below_mean"
check_below_ci_low = "check_below_ci_low"
check_below_ci_high = "check_below_ci_high"
check_above_mean = "check_above_mean"
check_above_ci_low = "check_above_ci_low"
check_above_ci_high = "check_above_ci_high"
exact_mean_at_half = "exact_mean_at_half"
exact_mean_at_double = "exact_mean_at_double"
check_passed = "check_passed"
topology = "topology"
topology_family = "topology_family"
endpoints = "endpoints"
switches = "switches"
links = "links"
diameter = "diameter"
background_endpoints = "background_endpoints"
processes = "processes"
active_processes = "active_processes"
idle_processes = "idle_processes"
rounds = "rounds"
slowdown_samples = "slowdown_samples"
slowdown_mean = "slowdown_mean"
slowdown_ci_low = "slowdown_ci_low"
slowdown_ci_high = "slowdown_ci_high"
slowdown_ci_method = "slowdown_ci_method"
slowdown_standard_error = "slowdown_standard_error"
samples = "samples"
cost_perturbed_samples = "cost_perturbed_samples"
cost_perturbed_mean = "cost_perturbed_mean"
cost_perturbed_ci_low = "cost_perturbed_ci_low"
cost_perturbed_ci_high = "cost_perturbed_ci_high"
cost_perturbed_ci_method = "cost_perturbed_ci_method"
cost_perturbed_standard_error = "cost_perturbed_standard_error"
cost_quiet_samples = "cost_quiet_samples"
cost_quiet_mean = "cost_quiet_mean"
cost_quiet_ci_low = "cost_quiet_ci_low"
cost_quiet_ci_high = "cost_quiet_ci_high"
cost_quiet_ci_method = "cost_quiet_ci_method"
cost_quiet_standard_error = "cost_quiet_standard_error"
cost_clean_samples = "cost_clean_samples"
cost_clean_mean = "cost_clean_mean"
cost_clean_ci_low = "cost_clean_ci_low"
cost_clean_ci_high = "cost_clean_ci_high"
cost_clean_ci_method = "cost_clean_ci_method"
cost_clean_standard_error = "cost_clean_standard_error"
slowdown_total_samples = "slowdown_total_samples"
slowdown_total_mean = "slowdown_total_mean"
slowdown_total_ci_low = "slowdown_total_ci_low"
slowdown_total_ci_high = "slowdown_total_ci_high"
slowdown_total_ci_method = "slowdown_total_ci_method"
slowdown_total_standard_error = "slowdown_total_standard_error"
slowdown_median = "slowdown_median"
slowdown_median_ci_low = "slowdown_median_ci_low"
slowdown_median_ci_high = "slowdown_median_ci_high"
slowdown_median_resolution = "slowdown_median_resolution"
slowdown_p90 = "slowdown_p90"
slowdown_p90_ci_low = "slowdown_p90_ci_low"
slowdown_p90_ci_high = "slowdown_p90_ci_high"
slowdown_p90_resolution = "slowdown_p90_resolution"
slowdown_p99 = "slowdown_p99"
slowdown_p99_ci_low = "slowdown_p99_ci_low"
slowdown_p99_ci_high = "slowdown_p99_ci_high"
slowdown_p99_resolution = "slowdown_p99_resolution"
slowdown_p999 = "slowdown_p999"
slowdown_p999_ci_low = "slowdown_p999_ci_low"
slowdown_p999_ci_high = "slowdown_p999_ci_high"
slowdown_p999_resolution = "slowdown_p999_resolution"
slowdown_quantiles_method = "slowdown_quantiles_method"
mean = "mean"
ci_low = "ci_low"
ci_high = "ci_high"
ci_method = "ci_method"
standard_error = "standard_error"
mean_tail_corrected = "mean_tail_corrected"
sd = "sd"
min = "min"
max = "max"
tail_index = "tail_index"
tail_index_hill = "tail_index_hill"
exact_mean = "exact_mean"
exact_sd = "exact_sd"
exact_in_ci = "exact_in_ci"
exact_in_ci_adjusted = "exact_in_ci_adjusted"
adjusted_confidence = "adjusted_confidence"
z_score = "z_score"
within_theorem1 = "within_theorem1"
within_bounds = "within_bounds"
theorem1_lower = "theorem1_lower"
theorem1_lower_corrected = "theorem1_lower_corrected"
theorem1_upper = "theorem1_upper"
bound_lower = "bound_lower"
bound_upper = "bound_upper"
theorem2_lower = "theorem2_lower"
theorem3_lower = "theorem3_lower"
theorem4_lower = "theorem4_lower"
noiseless_time = "noiseless_time"
median = "median"
median_ci_low = "median_ci_low"
median_ci_high = "median_ci_high"
median_resolution = "median_resolution"
p90 = "p90"
p90_ci_low = "p90_ci_low"
p90_ci_high = "p90_ci_high"
p90_resolution = "p90_resolution"
p99 = "p99"
p99_ci_low = "p99_ci_low"
p99_ci_high = "p99_ci_high"
p99_resolution = "p99_resolution"
p999 = "p999"
p999_ci_low = "p999_ci_low"
p999_ci_high = "p999_ci_high"
p999_resolution = "p999_resolution"
quantiles_method = "quantiles_method"
median_exact = "median_exact"
p90_exact = "p90_exact"
p99_exact = "p99_exact"
p999_exact = "p999_exact"
mean_phase_time = "mean_phase_time"
noise_busy_fraction = "noise_busy_fraction"
phase_time_means = "phase_time_means"
phase_time_ci_low = "phase_time_ci_low"
phase_time_ci_high = "phase_time_ci_high"
phase_time_median = "phase_time_median"
phase_time_median_ci_low = "phase_time_median_ci_low"
phase_time_median_ci_high = "phase_time_median_ci_high"
phase_time_median_resolution = "phase_time_median_resolution"
phase_time_p90 = "phase_time_p90"
phase_time_p90_ci_low = "phase_time_p90_ci_low"
phase_time_p90_ci_high = "phase_time_p90_ci_high"
phase_time_p90_resolution = "phase_time_p90_resolution"
phase_time_p99 = "phase_time_p99"
phase_time_p99_ci_low = "phase_time_p99_ci_low"
phase_time_p99_ci_high = "phase_time_p99_ci_high"
phase_time_p99_resolution = "phase_time_p99_resolution"
phase_time_p999 = "phase_time_p999"
phase_time_p999_ci_low = "phase_time_p999_ci_low"
phase_time_p999_ci_high = "phase_time_p999_ci_high"
phase_time_p999_resolution = "phase_time_p999_resolution"
phase_time_quantiles_method = "phase_time_quantiles_method"
conventional_samples = "conventional_samples"
conventional_mean = "conventional_mean"
conventional_ci_low = "conventional_ci_low"
conventional_ci_high = "conventional_ci_high"
conventional_ci_method = "conventional_ci_method"
conventional_standard_error = "conventional_standard_error"
redundant_samples = "redundant_samples"
redundant_mean = "redundant_mean"
redundant_ci_low = "redundant_ci_low"
redundant_ci_high = "redundant_ci_high"
redundant_ci_method = "redundant_ci_method"
redundant_standard_error = "redundant_standard_error"
quiet_samples = "quiet_samples"
quiet_mean = "quiet_mean"
quiet_ci_low = "quiet_ci_low"
quiet_ci_high = "quiet_ci_high"
quiet_ci_method = "quiet_ci_method"
quiet_standard_error = "quiet_standard_error"
recovery_ratio = "recovery_ratio"
recovery_ratio_ci_low = "recovery_ratio_ci_low"
recovery_ratio_ci_high = "recovery_ratio_ci_high"
recovery_ratio_method = "recovery_ratio_method"
adoptions_per_rank_cycle = "adoptions_per_rank_cycle"
noiseless_closed_form = "noiseless_closed_form"
noiseless_closed_form_redundant = "noiseless_closed_form_redundant"
cycle = "cycle"
conventional_T = "conventional_T"
conventional_T_ci_low = "conventional_T_ci_low"
conventional_T_ci_high = "conventional_T_ci_high"
redundant_T = "redundant_T"
redundant_T_ci_low = "redundant_T_ci_low"
redundant_T_ci_high = "redundant_T_ci_high"
quiet_T = "quiet_T"
quiet_T_ci_low = "quiet_T_ci_low"
quiet_T_ci_high = "quiet_T_ci_high"
schedule = "schedule"
ranks = "ranks"
operations = "operations"
events_per_sample = "events_per_sample"
completion_samples = "completion_samples"
completion_mean = "completion_mean"
completion_ci_low = "completion_ci_low"
completion_ci_high = "completion_ci_high"
completion_ci_method = "completion_ci_method"
completion_standard_error = "completion_standard_error"
completion_sd = "completion_sd"
noiseless_completion = "noiseless_completion"
completion_median = "completion_median"
completion_median_ci_low = "completion_median_ci_low"
completion_median_ci_high = "completion_median_ci_high"
completion_median_resolution = "completion_median_resolution"
completion_p90 = "completion_p90"
completion_p90_ci_low = "completion_p90_ci_low"
completion_p90_ci_high = "completion_p90_ci_high"
completion_p90_resolution = "completion_p90_resolution"
completion_p99 = "completion_p99"
completion_p99_ci_low = "completion_p99_ci_low"
completion_p99_ci_high = "completion_p99_ci_high"
completion_p99_resolution = "completion_p99_resolution"
completion_p999 = "completion_p999"
completion_p999_ci_low = "completion_p999_ci_low"
completion_p999_ci_high = "completion_p999_ci_high"
completion_p999_resolution = "completion_p999_resolution"
completion_quantiles_method = "completion_quantiles_method"
noiseless_finish = "noiseless_finish"
sample_finish_index = "sample_finish_index"
sample_finish = "sample_finish"
latency_pool_bytes = "latency_pool_bytes"
latency_pool_samples = "latency_pool_samples"
latency_pools = "latency_pools"
latency_floored_share = "latency_floored_share"
pair_classes = "pair_classes"
near_messages = "near_messages"
far_messages = "far_messages"
contention = "contention"
placement = "placement"
noiseless_network_repolls = "noiseless_network_repolls"
noiseless_network_recomputations = "noiseless_network_recomputations"
background_job = "background_job"
background_job_ranks = "background_job_ranks"
noiseless_background_job_finish = "noiseless_background_job_finish"
slowest_tail_share = "slowest_tail_share"
slowest_tail_share_ci_low = "slowest_tail_share_ci_low"
slowest_tail_share_ci_high = "slowest_tail_share_ci_high"
sensitivity_step = "sensitivity_step"
sensitivity_L_samples = "sensitivity_L_samples"
sensitivity_L_mean = "sensitivity_L_mean"
sensitivity_L_ci_low = "sensitivity_L_ci_low"
sensitivity_L_ci_high = "sensitivity_L_ci_high"
sensitivity_L_ci_method = "sensitivity_L_ci_method"
sensitivity_L_standard_error = "sensitivity_L_standard_error"
sensitivity_L_path_changed_share = "sensitivity_L_path_changed_share"
sensitivity_L_path_changed_share_ci_low = "sensitivity_L_path_changed_share_ci_low"
sensitivity_L_path_changed_share_ci_high = "sensitivity_L_path_changed_share_ci_high"
path_sensitivity_L_samples = "path_sensitivity_L_samples"
path_sensitivity_L_mean = "path_sensitivity_L_mean"
path_sensitivity_L_ci_low = "path_sensitivity_L_ci_low"
path_sensitivity_L_ci_high = "path_sensitivity_L_ci_high"
path_sensitivity_L_ci_method = "path_sensitivity_L_ci_method"
path_sensitivity_L_standard_error = "path_sensitivity_L_standard_error"
sensitivity_L_path_disagrees_share = "sensitivity_L_path_disagrees_share"
sensitivity_L_path_disagrees_share_ci_low = "sensitivity_L_path_disagrees_share_ci_low"
sensitivity_L_path_disagrees_share_ci_high = "sensitivity_L_path_disagrees_share_ci_high"
sensitivity_o_samples = "sensitivity_o_samples"
sensitivity_o_mean = "sensitivity_o_mean"
sensitivity_o_ci_low = "sensitivity_o_ci_low"
sensitivity_o_ci_high = "sensitivity_o_ci_high"
sensitivity_o_ci_method = "sensitivity_o_ci_method"
sensitivity_o_standard_error = "sensitivity_o_standard_error"
sensitivity_o_path_changed_share = "sensitivity_o_path_changed_share"
sensitivity_o_path_changed_share_ci_low = "sensitivity_o_path_changed_share_ci_low"
sensitivity_o_path_changed_share_ci_high = "sensitivity_o_path_changed_share_ci_high"
path_sensitivity_o_samples = "path_sensitivity_o_samples"
path_sensitivity_o_mean = "path_sensitivity_o_mean"
path_sensitivity_o_ci_low = "path_sensitivity_o_ci_low"
path_sensitivity_o_ci_high = "path_sensitivity_o_ci_high"
path_sensitivity_o_ci_method = "path_sensitivity_o_ci_method"
path_sensitivity_o_standard_error = "path_sensitivity_o_standard_error"
sensitivity_o_path_disagrees_share = "sensitivity_o_path_disagrees_share"
sensitivity_o_path_disagrees_share_ci_low = "sensitivity_o_path_disagrees_share_ci_low"
sensitivity_o_path_disagrees_share_ci_high = "sensitivity_o_path_disagrees_share_ci_high"
sensitivity_g_samples = "sensitivity_g_samples"
sensitivity_g_mean = "sensitivity_g_mean"
sensitivity_g_ci_low = "sensitivity_g_ci_low"
sensitivity_g_ci_high = "sensitivity_g_ci_high"
sensitivity_g_ci_method = "sensitivity_g_ci_method"
sensitivity_g_standard_error = "sensitivity_g_standard_error"
sensitivity_g_path_changed_share = "sensitivity_g_path_changed_share"
sensitivity_g_path_changed_share_ci_low = "sensitivity_g_path_changed_share_ci_low"
sensitivity_g_path_changed_share_ci_high = "sensitivity_g_path_changed_share_ci_high"
path_sensitivity_g_samples = "path_sensitivity_g_samples"
path_sensitivity_g_mean = "path_sensitivity_g_mean"
path_sensitivity_g_ci_low = "path_sensitivity_g_ci_low"
path_sensitivity_g_ci_high = "path_sensitivity_g_ci_high"
path_sensitivity_g_ci_method = "path_sensitivity_g_ci_method"
path_sensitivity_g_standard_error = "path_sensitivity_g_standard_error"
sensitivity_g_path_disagrees_share = "sensitivity_g_path_disagrees_share"
sensitivity_g_path_disagrees_share_ci_low = "sensitivity_g_path_disagrees_share_ci_low"
sensitivity_g_path_disagrees_share_ci_high = "sensitivity_g_path_disagrees_share_ci_high"
sensitivity_G_samples = "sensitivity_G_samples"
sensitivity_G_mean = "sensitivity_G_mean"
sensitivity_G_ci_low = "sensitivity_G_ci_low"
sensitivity_G_ci_high = "sensitivity_G_ci_high"
sensitivity_G_ci_method = "sensitivity_G_ci_method"
sensitivity_G_standard_error = "sensitivity_G_standard_error"
sensitivity_G_path_changed_share = "sensitivity_G_path_changed_share"
sensitivity_G_path_changed_share_ci_low = "sensitivity_G_path_changed_share_ci_low"
sensitivity_G_path_changed_share_ci_high = "sensitivity_G_path_changed_share_ci_high"
path_sensitivity_G_samples = "path_sensitivity_G_samples"
path_sensitivity_G_mean = "path_sensitivity_G_mean"
path_sensitivity_G_ci_low = "path_sensitivity_G_ci_low"
path_sensitivity_G_ci_high = "path_sensitivity_G_ci_high"
path_sensitivity_G_ci_method = "path_sensitivity_G_ci_method"
path_sensitivity_G_standard_error = "path_sensitivity_G_standard_error"
sensitivity_G_path_disagrees_share = "sensitivity_G_path_disagrees_share"
sensitivity_G_path_disagrees_share_ci_low = "sensitivity_G_path_disagrees_share_ci_low"
sensitivity_G_path_disagrees_share_ci_high = "sensitivity_G_path_disagrees_share_ci_high"
sensitivity_O_samples = "sensitivity_O_samples"
sensitivity_O_mean = "sensitivity_O_mean"
sensitivity_O_ci_low = "sensitivity_O_ci_low"
sensitivity_O_ci_high = "sensitivity_O_ci_high"
sensitivity_O_ci_method = "sensitivity_O_ci_method"
sensitivity_O_standard_error = "sensitivity_O_standard_error"
sensitivity_O_path_changed_share = "sensitivity_O_path_changed_share"
sensitivity_O_path_changed_share_ci_low = "sensitivity_O_path_changed_share_ci_low"
sensitivity_O_path_changed_share_ci_high = "sensitivity_O_path_changed_share_ci_high"
path_sensitivity_O_samples = "path_sensitivity_O_samples"
path_sensitivity_O_mean = "path_sensitivity_O_mean"
path_sensitivity_O_ci_low = "path_sensitivity_O_ci_low"
path_sensitivity_O_ci_high = "path_sensitivity_O_ci_high"
path_sensitivity_O_ci_method = "path_sensitivity_O_ci_method"
path_sensitivity_O_standard_error = "path_sensitivity_O_standard_error"
sensitivity_O_path_disagrees_share = "sensitivity_O_path_disagrees_share"
sensitivity_O_path_disagrees_share_ci_low = "sensitivity_O_path_disagrees_share_ci_low"
sensitivity_O_path_disagrees_share_ci_high = "sensitivity_O_path_disagrees_share_ci_high"
path_calc_samples = "path_calc_samples"
path_calc_mean = "path_calc_mean"
path_calc_ci_low = "path_calc_ci_low"
path_calc_ci_high = "path_calc_ci_high"
path_calc_ci_method = "path_calc_ci_method"
path_calc_standard_error = "path_calc_standard_error"
path_calc_noiseless = "path_calc_noiseless"
path_calc_excess = "path_calc_excess"
path_overhead_samples = "path_overhead_samples"
path_overhead_mean = "path_overhead_mean"
path_overhead_ci_low = "path_overhead_ci_low"
path_overhead_ci_high = "path_overhead_ci_high"
path_overhead_ci_method = "path_overhead_ci_method"
path_overhead_standard_error = "path_overhead_standard_error"
path_overhead_noiseless = "path_overhead_noiseless"
path_overhead_excess = "path_overhead_excess"
path_gap_samples = "path_gap_samples"
path_gap_mean = "path_gap_mean"
path_gap_ci_low = "path_gap_ci_low"
path_gap_ci_high = "path_gap_ci_high"
path_gap_ci_method = "path_gap_ci_method"
path_gap_standard_error = "path_gap_standard_error"
path_gap_noiseless = "path_gap_noiseless"
path_gap_excess = "path_gap_excess"
path_wire_samples = "path_wire_samples"
path_wire_mean = "path_wire_mean"
path_wire_ci_low = "path_wire_ci_low"
path_wire_ci_high = "path_wire_ci_high"
path_wire_ci_method = "path_wire_ci_method"
path_wire_standard_error = "path_wire_standard_error"
path_wire_noiseless = "path_wire_noiseless"
path_wire_excess = "path_wire_excess"
path_noise_samples = "path_noise_samples"
path_noise_mean = "path_noise_mean"
path_noise_ci_low = "path_noise_ci_low"
path_noise_ci_high = "path_noise_ci_high"
path_noise_ci_method = "path_noise_ci_method"
path_noise_standard_error = "path_noise_standard_error"
path_noise_noiseless = "path_noise_noiseless"
path_noise_excess = "path_noise_excess"
path_rendezvous_samples = "path_rendezvous_samples"
path_rendezvous_mean = "path_rendezvous_mean"
path_rendezvous_ci_low = "path_rendezvous_ci_low"
path_rendezvous_ci_high = "path_rendezvous_ci_high"
path_rendezvous_ci_method = "path_rendezvous_ci_method"
path_rendezvous_standard_error = "path_rendezvous_standard_error"
path_rendezvous_noiseless = "path_rendezvous_noiseless"
path_rendezvous_excess = "path_rendezvous_excess"
noise_charged_samples = "noise_charged_samples"
noise_charged_mean = "noise_charged_mean"
noise_charged_ci_low = "noise_charged_ci_low"
noise_charged_ci_high = "noise_charged_ci_high"
noise_charged_ci_method = "noise_charged_ci_method"
noise_charged_standard_error = "noise_charged_standard_error"
absorption_ratio = "absorption_ratio"
absorption_ratio_ci_low = "absorption_ratio_ci_low"
absorption_ratio_ci_high = "absorption_ratio_ci_high"
path_noise_by_step = "path_noise_by_step"
path_step = "path_step"
path_steps_per_bucket = "path_steps_per_bucket"
last_rank_top = "last_rank_top"
last_rank_share = "last_rank_share"
last_rank_range = "last_rank_range"
path_network_samples = "path_network_samples"
path_network_mean = "path_network_mean"
path_network_ci_low = "path_network_ci_low"
path_network_ci_high = "path_network_ci_high"
path_network_ci_method = "path_network_ci_method"
path_network_standard_error = "path_network_standard_error"
path_network_noiseless = "path_network_noiseless"
path_network_excess = "path_network_excess"
loggp_fit = "loggp_fit"
loggp_eager_bytes = "loggp_eager_bytes"
loggp_eager_L = "loggp_eager_L"
loggp_eager_o = "loggp_eager_o"
loggp_eager_O = "loggp_eager_O"
loggp_eager_g = "loggp_eager_g"
loggp_eager_G = "loggp_eager_G"
loggp_rendezvous_L = "loggp_rendezvous_L"
loggp_rendezvous_o = "loggp_rendezvous_o"
loggp_rendezvous_O = "loggp_rendezvous_O"
loggp_rendezvous_g = "loggp_rendezvous_g"
loggp_rendezvous_G = "loggp_rendezvous_G"
rank_entry = "rank_entry"
sample_timing = "sample_timing"
benchmark_loop = "benchmark_loop"
loop_recorded_iterations = "loop_recorded_iterations"
loop_warmup_iterations = "loop_warmup_iterations"
first_point = "first_point"
prediction_draws = "prediction_draws"
prediction_level = "prediction_level"
machine_file = "machine_file"
extrapolation = "extrapolation"
largest_calibrated_ranks = "largest_calibrated_ranks"

# The unit each field is stored with ("" for none).
UNITS = {
    confidence: "",
    warnings: "",
    precision_met: "",
    precision_samples: "",
    precision_batches: "",
    precision_predicted_samples: "",
    precision_max_samples: "",
    precision_min_samples: "",
    precision_mean_target: "",
    precision_mean_achieved: "",
    precision_quantile: "",
    precision_quantile_target: "",
    precision_quantile_achieved: "",
    precision_note: "",
    bounds_decided: "",
    curve: "",
    efficiency_target: "",
    p: "work units per second",
    m: "",
    W: "work units",
    W_ci_low: "work units",
    W_ci_high: "work units",
    W_exact: "work units",
    W_ci_method: "",
    T_q: "seconds",
    T_q_ci_low: "seconds",
    T_q_ci_high: "seconds",
    T_o: "seconds",
    T_o_ci_low: "seconds",
    T_o_ci_high: "seconds",
    samples_per_m: "",
    growth_exponent: "",
    growth_exponent_ci_low: "",
    growth_exponent_ci_high: "",
    predicted_exponent: "",
    scalable: "",
    scalable_note: "",
    W_note: "",
    efficiency_any_W: "",
    surface_W: "work units",
    surface_m: "",
    surface_E: "",
    target_time: "seconds",
    nhalf_paper_approx: "",
    nhalf_paper_formula: "",
    nhalf_exact: "",
    nhalf_exact_string: "",
    nhalf_exact_resolved: "",
    nhalf_exact_low: "",
    nhalf_exact_low_string: "",
    nhalf_exact_high: "",
    nhalf_exact_high_string: "",
    nhalf_exact_note: "",
    nhalf_full_tree: "",
    nhalf_full_tree_string: "",
    nhalf_full_tree_levels: "",
    paper_relative_error: "",
    check_N_half: "",
    check_N_half_string: "",
    check_N_double: "",
    check_N_double_string: "",
    check_confidence: "",
    check_samples: "",
    check_ci_method: "",
    check_below_mean: "seconds",
    check_below_ci_low: "seconds",
    check_below_ci_high: "seconds",
    check_above_mean: "seconds",
    check_above_ci_low: "seconds",
    check_above_ci_high: "seconds",
    exact_mean_at_half: "seconds",
    exact_mean_at_double: "seconds",
    check_passed: "",
    topology: "",
    topology_family: "",
    endpoints: "",
    switches: "",
    links: "",
    diameter: "",
    background_endpoints: "",
    processes: "",
    active_processes: "",
    idle_processes: "",
    rounds: "",
    slowdown_samples: "",
    slowdown_mean: "1",
    slowdown_ci_low: "1",
    slowdown_ci_high: "1",
    slowdown_ci_method: "",
    slowdown_standard_error: "1",
    samples: "",
    cost_perturbed_samples: "",
    cost_perturbed_mean: "message-times",
    cost_perturbed_ci_low: "message-times",
    cost_perturbed_ci_high: "message-times",
    cost_perturbed_ci_method: "",
    cost_perturbed_standard_error: "message-times",
    cost_quiet_samples: "",
    cost_quiet_mean: "message-times",
    cost_quiet_ci_low: "message-times",
    cost_quiet_ci_high: "message-times",
    cost_quiet_ci_method: "",
    cost_quiet_standard_error: "message-times",
    cost_clean_samples: "",
    cost_clean_mean: "message-times",
    cost_clean_ci_low: "message-times",
    cost_clean_ci_high: "message-times",
    cost_clean_ci_method: "",
    cost_clean_standard_error: "message-times",
    slowdown_total_samples: "",
    slowdown_total_mean: "1",
    slowdown_total_ci_low: "1",
    slowdown_total_ci_high: "1",
    slowdown_total_ci_method: "",
    slowdown_total_standard_error: "1",
    slowdown_median: "1",
    slowdown_median_ci_low: "1",
    slowdown_median_ci_high: "1",
    slowdown_median_resolution: "1",
    slowdown_p90: "1",
    slowdown_p90_ci_low: "1",
    slowdown_p90_ci_high: "1",
    slowdown_p90_resolution: "1",
    slowdown_p99: "1",
    slowdown_p99_ci_low: "1",
    slowdown_p99_ci_high: "1",
    slowdown_p99_resolution: "1",
    slowdown_p999: "1",
    slowdown_p999_ci_low: "1",
    slowdown_p999_ci_high: "1",
    slowdown_p999_resolution: "1",
    slowdown_quantiles_method: "",
    mean: "seconds",
    ci_low: "seconds",
    ci_high: "seconds",
    ci_method: "",
    standard_error: "seconds",
    mean_tail_corrected: "seconds",
    sd: "seconds",
    min: "seconds",
    max: "seconds",
    tail_index: "",
    tail_index_hill: "",
    exact_mean: "seconds",
    exact_sd: "seconds",
    exact_in_ci: "",
    exact_in_ci_adjusted: "",
    adjusted_confidence: "",
    z_score: "",
    within_theorem1: "",
    within_bounds: "",
    theorem1_lower: "seconds",
    theorem1_lower_corrected: "seconds",
    theorem1_upper: "seconds",
    bound_lower: "seconds",
    bound_upper: "seconds",
    theorem2_lower: "seconds",
    theorem3_lower: "seconds",
    theorem4_lower: "seconds",
    noiseless_time: "seconds",
    median: "seconds",
    median_ci_low: "seconds",
    median_ci_high: "seconds",
    median_resolution: "seconds",
    p90: "seconds",
    p90_ci_low: "seconds",
    p90_ci_high: "seconds",
    p90_resolution: "seconds",
    p99: "seconds",
    p99_ci_low: "seconds",
    p99_ci_high: "seconds",
    p99_resolution: "seconds",
    p999: "seconds",
    p999_ci_low: "seconds",
    p999_ci_high: "seconds",
    p999_resolution: "seconds",
    quantiles_method: "",
    median_exact: "seconds",
    p90_exact: "seconds",
    p99_exact: "seconds",
    p999_exact: "seconds",
    mean_phase_time: "seconds",
    noise_busy_fraction: "",
    phase_time_means: "seconds",
    phase_time_ci_low: "seconds",
    phase_time_ci_high: "seconds",
    phase_time_median: "seconds",
    phase_time_median_ci_low: "seconds",
    phase_time_median_ci_high: "seconds",
    phase_time_median_resolution: "seconds",
    phase_time_p90: "seconds",
    phase_time_p90_ci_low: "seconds",
    phase_time_p90_ci_high: "seconds",
    phase_time_p90_resolution: "seconds",
    phase_time_p99: "seconds",
    phase_time_p99_ci_low: "seconds",
    phase_time_p99_ci_high: "seconds",
    phase_time_p99_resolution: "seconds",
    phase_time_p999: "seconds",
    phase_time_p999_ci_low: "seconds",
    phase_time_p999_ci_high: "seconds",
    phase_time_p999_resolution: "seconds",
    phase_time_quantiles_method: "",
    conventional_samples: "",
    conventional_mean: "seconds",
    conventional_ci_low: "seconds",
    conventional_ci_high: "seconds",
    conventional_ci_method: "",
    conventional_standard_error: "seconds",
    redundant_samples: "",
    redundant_mean: "seconds",
    redundant_ci_low: "seconds",
    redundant_ci_high: "seconds",
    redundant_ci_method: "",
    redundant_standard_error: "seconds",
    quiet_samples: "",
    quiet_mean: "seconds",
    quiet_ci_low: "seconds",
    quiet_ci_high: "seconds",
    quiet_ci_method: "",
    quiet_standard_error: "seconds",
    recovery_ratio: "",
    recovery_ratio_ci_low: "",
    recovery_ratio_ci_high: "",
    recovery_ratio_method: "",
    adoptions_per_rank_cycle: "",
    noiseless_closed_form: "seconds",
    noiseless_closed_form_redundant: "seconds",
    cycle: "",
    conventional_T: "seconds",
    conventional_T_ci_low: "seconds",
    conventional_T_ci_high: "seconds",
    redundant_T: "seconds",
    redundant_T_ci_low: "seconds",
    redundant_T_ci_high: "seconds",
    quiet_T: "seconds",
    quiet_T_ci_low: "seconds",
    quiet_T_ci_high: "seconds",
    schedule: "",
    ranks: "",
    operations: "",
    events_per_sample: "",
    completion_samples: "",
    completion_mean: "seconds",
    completion_ci_low: "seconds",
    completion_ci_high: "seconds",
    completion_ci_method: "",
    completion_standard_error: "seconds",
    completion_sd: "seconds",
    noiseless_completion: "seconds",
    completion_median: "seconds",
    completion_median_ci_low: "seconds",
    completion_median_ci_high: "seconds",
    completion_median_resolution: "seconds",
    completion_p90: "seconds",
    completion_p90_ci_low: "seconds",
    completion_p90_ci_high: "seconds",
    completion_p90_resolution: "seconds",
    completion_p99: "seconds",
    completion_p99_ci_low: "seconds",
    completion_p99_ci_high: "seconds",
    completion_p99_resolution: "seconds",
    completion_p999: "seconds",
    completion_p999_ci_low: "seconds",
    completion_p999_ci_high: "seconds",
    completion_p999_resolution: "seconds",
    completion_quantiles_method: "",
    noiseless_finish: "seconds",
    sample_finish_index: "",
    sample_finish: "seconds",
    latency_pool_bytes: "",
    latency_pool_samples: "",
    latency_pools: "",
    latency_floored_share: "",
    pair_classes: "",
    near_messages: "",
    far_messages: "",
    contention: "",
    placement: "",
    noiseless_network_repolls: "",
    noiseless_network_recomputations: "",
    background_job: "",
    background_job_ranks: "",
    noiseless_background_job_finish: "seconds",
    slowest_tail_share: "",
    slowest_tail_share_ci_low: "",
    slowest_tail_share_ci_high: "",
    sensitivity_step: "",
    sensitivity_L_samples: "",
    sensitivity_L_mean: "",
    sensitivity_L_ci_low: "",
    sensitivity_L_ci_high: "",
    sensitivity_L_ci_method: "",
    sensitivity_L_standard_error: "",
    sensitivity_L_path_changed_share: "",
    sensitivity_L_path_changed_share_ci_low: "",
    sensitivity_L_path_changed_share_ci_high: "",
    path_sensitivity_L_samples: "",
    path_sensitivity_L_mean: "",
    path_sensitivity_L_ci_low: "",
    path_sensitivity_L_ci_high: "",
    path_sensitivity_L_ci_method: "",
    path_sensitivity_L_standard_error: "",
    sensitivity_L_path_disagrees_share: "",
    sensitivity_L_path_disagrees_share_ci_low: "",
    sensitivity_L_path_disagrees_share_ci_high: "",
    sensitivity_o_samples: "",
    sensitivity_o_mean: "",
    sensitivity_o_ci_low: "",
    sensitivity_o_ci_high: "",
    sensitivity_o_ci_method: "",
    sensitivity_o_standard_error: "",
    sensitivity_o_path_changed_share: "",
    sensitivity_o_path_changed_share_ci_low: "",
    sensitivity_o_path_changed_share_ci_high: "",
    path_sensitivity_o_samples: "",
    path_sensitivity_o_mean: "",
    path_sensitivity_o_ci_low: "",
    path_sensitivity_o_ci_high: "",
    path_sensitivity_o_ci_method: "",
    path_sensitivity_o_standard_error: "",
    sensitivity_o_path_disagrees_share: "",
    sensitivity_o_path_disagrees_share_ci_low: "",
    sensitivity_o_path_disagrees_share_ci_high: "",
    sensitivity_g_samples: "",
    sensitivity_g_mean: "",
    sensitivity_g_ci_low: "",
    sensitivity_g_ci_high: "",
    sensitivity_g_ci_method: "",
    sensitivity_g_standard_error: "",
    sensitivity_g_path_changed_share: "",
    sensitivity_g_path_changed_share_ci_low: "",
    sensitivity_g_path_changed_share_ci_high: "",
    path_sensitivity_g_samples: "",
    path_sensitivity_g_mean: "",
    path_sensitivity_g_ci_low: "",
    path_sensitivity_g_ci_high: "",
    path_sensitivity_g_ci_method: "",
    path_sensitivity_g_standard_error: "",
    sensitivity_g_path_disagrees_share: "",
    sensitivity_g_path_disagrees_share_ci_low: "",
    sensitivity_g_path_disagrees_share_ci_high: "",
    sensitivity_G_samples: "",
    sensitivity_G_mean: "bytes",
    sensitivity_G_ci_low: "bytes",
    sensitivity_G_ci_high: "bytes",
    sensitivity_G_ci_method: "",
    sensitivity_G_standard_error: "bytes",
    sensitivity_G_path_changed_share: "",
    sensitivity_G_path_changed_share_ci_low: "",
    sensitivity_G_path_changed_share_ci_high: "",
    path_sensitivity_G_samples: "",
    path_sensitivity_G_mean: "bytes",
    path_sensitivity_G_ci_low: "bytes",
    path_sensitivity_G_ci_high: "bytes",
    path_sensitivity_G_ci_method: "",
    path_sensitivity_G_standard_error: "bytes",
    sensitivity_G_path_disagrees_share: "",
    sensitivity_G_path_disagrees_share_ci_low: "",
    sensitivity_G_path_disagrees_share_ci_high: "",
    sensitivity_O_samples: "",
    sensitivity_O_mean: "bytes",
    sensitivity_O_ci_low: "bytes",
    sensitivity_O_ci_high: "bytes",
    sensitivity_O_ci_method: "",
    sensitivity_O_standard_error: "bytes",
    sensitivity_O_path_changed_share: "",
    sensitivity_O_path_changed_share_ci_low: "",
    sensitivity_O_path_changed_share_ci_high: "",
    path_sensitivity_O_samples: "",
    path_sensitivity_O_mean: "bytes",
    path_sensitivity_O_ci_low: "bytes",
    path_sensitivity_O_ci_high: "bytes",
    path_sensitivity_O_ci_method: "",
    path_sensitivity_O_standard_error: "bytes",
    sensitivity_O_path_disagrees_share: "",
    sensitivity_O_path_disagrees_share_ci_low: "",
    sensitivity_O_path_disagrees_share_ci_high: "",
    path_calc_samples: "",
    path_calc_mean: "seconds",
    path_calc_ci_low: "seconds",
    path_calc_ci_high: "seconds",
    path_calc_ci_method: "",
    path_calc_standard_error: "seconds",
    path_calc_noiseless: "seconds",
    path_calc_excess: "seconds",
    path_overhead_samples: "",
    path_overhead_mean: "seconds",
    path_overhead_ci_low: "seconds",
    path_overhead_ci_high: "seconds",
    path_overhead_ci_method: "",
    path_overhead_standard_error: "seconds",
    path_overhead_noiseless: "seconds",
    path_overhead_excess: "seconds",
    path_gap_samples: "",
    path_gap_mean: "seconds",
    path_gap_ci_low: "seconds",
    path_gap_ci_high: "seconds",
    path_gap_ci_method: "",
    path_gap_standard_error: "seconds",
    path_gap_noiseless: "seconds",
    path_gap_excess: "seconds",
    path_wire_samples: "",
    path_wire_mean: "seconds",
    path_wire_ci_low: "seconds",
    path_wire_ci_high: "seconds",
    path_wire_ci_method: "",
    path_wire_standard_error: "seconds",
    path_wire_noiseless: "seconds",
    path_wire_excess: "seconds",
    path_noise_samples: "",
    path_noise_mean: "seconds",
    path_noise_ci_low: "seconds",
    path_noise_ci_high: "seconds",
    path_noise_ci_method: "",
    path_noise_standard_error: "seconds",
    path_noise_noiseless: "seconds",
    path_noise_excess: "seconds",
    path_rendezvous_samples: "",
    path_rendezvous_mean: "seconds",
    path_rendezvous_ci_low: "seconds",
    path_rendezvous_ci_high: "seconds",
    path_rendezvous_ci_method: "",
    path_rendezvous_standard_error: "seconds",
    path_rendezvous_noiseless: "seconds",
    path_rendezvous_excess: "seconds",
    noise_charged_samples: "",
    noise_charged_mean: "seconds",
    noise_charged_ci_low: "seconds",
    noise_charged_ci_high: "seconds",
    noise_charged_ci_method: "",
    noise_charged_standard_error: "seconds",
    absorption_ratio: "1",
    absorption_ratio_ci_low: "1",
    absorption_ratio_ci_high: "1",
    path_noise_by_step: "seconds",
    path_step: "",
    path_steps_per_bucket: "",
    last_rank_top: "",
    last_rank_share: "1",
    last_rank_range: "",
    path_network_samples: "",
    path_network_mean: "seconds",
    path_network_ci_low: "seconds",
    path_network_ci_high: "seconds",
    path_network_ci_method: "",
    path_network_standard_error: "seconds",
    path_network_noiseless: "seconds",
    path_network_excess: "seconds",
    loggp_fit: "",
    loggp_eager_bytes: "bytes",
    loggp_eager_L: "seconds",
    loggp_eager_o: "seconds",
    loggp_eager_O: "seconds per byte",
    loggp_eager_g: "seconds",
    loggp_eager_G: "seconds per byte",
    loggp_rendezvous_L: "seconds",
    loggp_rendezvous_o: "seconds",
    loggp_rendezvous_O: "seconds per byte",
    loggp_rendezvous_g: "seconds",
    loggp_rendezvous_G: "seconds per byte",
    rank_entry: "",
    sample_timing: "",
    benchmark_loop: "",
    loop_recorded_iterations: "",
    loop_warmup_iterations: "",
    first_point: "",
    prediction_draws: "",
    prediction_level: "",
    machine_file: "",
    extrapolation: "",
    largest_calibrated_ranks: "",
}

# The fields holding exact values beside the estimates (FieldKind::kExact): closed
# forms, a theory's bounds, the noiseless run.
EXACT = frozenset({
    W_exact,
    predicted_exponent,
    target_time,
    nhalf_paper_approx,
    nhalf_exact,
    nhalf_exact_low,
    nhalf_exact_high,
    nhalf_full_tree,
    exact_mean_at_half,
    exact_mean_at_double,
    exact_mean,
    exact_sd,
    theorem1_lower,
    theorem1_lower_corrected,
    theorem1_upper,
    bound_lower,
    bound_upper,
    theorem2_lower,
    theorem3_lower,
    theorem4_lower,
    noiseless_time,
    median_exact,
    p90_exact,
    p99_exact,
    p999_exact,
    noiseless_closed_form,
    noiseless_closed_form_redundant,
    noiseless_completion,
    noiseless_finish,
    latency_floored_share,
})

# An estimated mean's fields are <prefix><member> (MeanFields): MEAN.ci_low is "ci_low".
MEAN = SimpleNamespace(
    samples="samples",
    mean="mean",
    ci_low="ci_low",
    ci_high="ci_high",
    ci_method="ci_method",
    standard_error="standard_error",
)

# The reported quantiles' names (QuantileFields), each with _ci_low, _ci_high and
# _resolution.
QUANTILES = (
    "median",
    "p90",
    "p99",
    "p999",
)

# A user bound's fields are bound(i, member), i from 1 (estimators/bound_fields.hpp):
# bound(2, BOUND.ci_low) is "bound_2_ci_low".
BOUND = SimpleNamespace(
    name="name",
    statistic="statistic",
    relation="relation",
    value="value",
    estimate="estimate",
    ci_low="ci_low",
    ci_high="ci_high",
    ci_method="ci_method",
    level="level",
    level_method="level_method",
    verdict="verdict",
    verdict_adjusted="verdict_adjusted",
    distance="distance",
)
#: The members, in the order the bounds table holds them.
BOUND_MEMBERS = (
    "name",
    "statistic",
    "relation",
    "value",
    "estimate",
    "ci_low",
    "ci_high",
    "ci_method",
    "level",
    "level_method",
    "verdict",
    "verdict_adjusted",
    "distance",
)
#: The members holding text; the others are numbers.
BOUND_TEXT_MEMBERS = (
    "name",
    "statistic",
    "relation",
    "ci_method",
    "level_method",
    "verdict",
    "verdict_adjusted",
)
#: The members in the primary metric's unit.
BOUND_QUANTITY_MEMBERS = (
    "value",
    "estimate",
    "ci_low",
    "ci_high",
)

# A prediction's fields of an estimate are <estimate><suffix> (PredictedEstimateFields,
# estimators/prediction_fields.hpp): "completion_mean" + PREDICTED.low.
PREDICTED = SimpleNamespace(
    mc_low="_mc_low",
    mc_high="_mc_high",
    low="_low",
    high="_high",
    calibration_share="_calibration_share",
    dominant="_dominant",
)


def bound(i, member):
    """The name of user bound i's field `member` (one of BOUND_MEMBERS)."""
    if member not in BOUND_MEMBERS:
        raise KeyError(member)
    return f"bound_{i}_{member}"
