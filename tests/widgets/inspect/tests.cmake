# Inspector suites: fed with real summaries from core and the paper's simulation tables.
rlda_add_test(test_architecture_inspector SOURCES test_architecture_inspector.cpp LIBS rlda_widgets_inspect rlda_core)
# The model graph: shapes against core's inference and a LibTorch forward, tooltips, exports.
rlda_add_test(test_model_graph SOURCES test_model_graph.cpp LIBS rlda_widgets_inspect rlda_core)
rlda_add_test(test_decision_view SOURCES test_decision_view.cpp LIBS rlda_widgets_inspect rlda_core)
rlda_add_test(test_table_explorer SOURCES test_table_explorer.cpp LIBS rlda_widgets_inspect rlda_core
              DATA ${RLDA_PAPER_DIR}/tables/convnet2_early.csv)
