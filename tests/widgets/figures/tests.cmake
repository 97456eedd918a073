# Figure suites: rank charts and the rank view on the paper's tables (data/paper/tables), the
# paper's figures as files, and `rlda figures` run as a user runs it.
rlda_add_test(test_rank_chart SOURCES test_rank_chart.cpp LIBS rlda_widgets_figures
              DATA ${RLDA_PAPER_TABLES})
rlda_add_test(test_rank_view SOURCES test_rank_view.cpp LIBS rlda_widgets_figures
              DATA ${RLDA_PAPER_TABLES})
rlda_add_test(test_paper_figures SOURCES test_paper_figures.cpp LIBS rlda_widgets_figures
              DATA ${RLDA_PAPER_TABLES})
rlda_add_test(test_cli_figures SOURCES test_cli_figures.cpp LIBS Qt6::Gui DATA ${RLDA_PAPER_TABLES})
add_dependencies(test_cli_figures rlda)
set_tests_properties(test_cli_figures PROPERTIES TIMEOUT 600)
