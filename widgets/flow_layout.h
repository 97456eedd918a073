// FlowLayout: widgets side by side while they fit, on the next line when they do not; how a row of
// controls (a plot's toggles, a form's group boxes) reflows on a narrow window instead of forcing
// its width on the whole window. Its minimum width is its widest item's; its height follows the
// width it is given (heightForWidth), so that a scroll area or a box layout makes room for the rows.
#pragma once

#include <QLayout>
#include <QList>
#include <QStyle>

namespace rlda::widgets {

class FlowLayout : public QLayout {
public:
    // Fill::Rows gives each row's items the width left over (group boxes that fill the page);
    // Fill::None leaves them at their size hint, packed at the left (a tool bar).
    enum class Fill { None, Rows };

    explicit FlowLayout(QWidget* parent = nullptr, Fill fill = Fill::None);
    ~FlowLayout() override;

    // A label and its field as one item, so that a line never ends between them.
    void addPair(QWidget* label, QWidget* field);

    void addItem(QLayoutItem* item) override;
    int count() const override { return int(items_.size()); }
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;

    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override; // every item on one line
    void setGeometry(const QRect& rect) override;

private:
    int gap(QStyle::PixelMetric metric) const;
    int arrange(const QRect& rect, bool apply) const; // the height the items take at rect's width

    QList<QLayoutItem*> items_;
    Fill fill_;
};

} // namespace rlda::widgets
