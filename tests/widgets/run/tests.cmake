# Run widgets: the experiment editor and its timeline, the run control, the run browser.
foreach(t test_allocation_timeline test_run_control test_experiment_editor test_run_browser test_run_list_model
          test_sweep_panel)
  rlda_add_test(${t} SOURCES ${t}.cpp LIBS rlda_widgets_run)
endforeach()
add_dependencies(test_run_browser rlda) # its table folders are built by rlda simulate
# Live run folders: the watcher, rlda simulate from outside, the views following an opened run.
rlda_add_test(test_run_live SOURCES test_run_live.cpp LIBS rlda_widgets_run rlda_widgets_plot)
add_dependencies(test_run_live rlda)
