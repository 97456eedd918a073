# Live plot suites: SeriesData on its own (no widget), SeriesPlot mechanics, then the training and
# learning views fed with core's value types.
rlda_add_test(test_series_data SOURCES test_series_data.cpp LIBS rlda_widgets_plot)
rlda_add_test(test_series_plot SOURCES test_series_plot.cpp LIBS rlda_widgets_plot)
rlda_add_test(test_training_view SOURCES test_training_view.cpp LIBS rlda_widgets_plot)
rlda_add_test(test_learning_view SOURCES test_learning_view.cpp LIBS rlda_widgets_plot)
